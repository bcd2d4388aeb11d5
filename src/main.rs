fn main() {
    std::process::exit(dreamreview::cli::main());
}
