//! Generates the bundled specs' Rust modules and schemas into OUT_DIR.
//! Writes nothing outside OUT_DIR; `specmint generate` refreshes the committed snapshot.

include!("src/bundle.rs");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/bundle.rs");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let result = specmint_codegen::Config::new()
        .spec_dir(SPEC_DIR)
        .options(bundle_options())
        .out_dir(out_dir)
        .run();
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
