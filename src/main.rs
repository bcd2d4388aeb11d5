fn main() {
    std::process::exit(dreamreview::faces::cli::main());
}
