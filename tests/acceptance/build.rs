// The README's build.rs recipe.
fn main() {
    if let Err(diagnostics) = specmint_codegen::Config::new()
        .spec_dir("spec")
        .out_dir(std::env::var("OUT_DIR").unwrap())
        .run()
    {
        eprintln!("{diagnostics}"); // spec/<name>.md:LINE:COL: error: ... / hint: ...
        std::process::exit(1);
    }
}
