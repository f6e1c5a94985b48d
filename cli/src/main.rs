//! The `specmint` program: the library [`specmint_cli`] does everything.

fn main() -> std::process::ExitCode {
    specmint_cli::main()
}
