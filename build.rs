//! Generates the bundled specs' Rust modules and schemas into OUT_DIR.
//! Writes nothing outside OUT_DIR; `specmint generate` refreshes the committed snapshot.

include!("src/bundle.rs");
include!("src/bundle_options.rs");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/bundle.rs");
    println!("cargo:rerun-if-changed=src/bundle_options.rs");
    // `cfg(engines)`: the Action Envelope engine and the Task Envelope lifecycle, on whichever
    // store backends the build has.
    println!("cargo::rustc-check-cfg=cfg(engines)");
    if std::env::var_os("CARGO_FEATURE_SQLITE").is_some()
        || std::env::var_os("CARGO_FEATURE_POSTGRES").is_some()
    {
        println!("cargo::rustc-cfg=engines");
    }
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
