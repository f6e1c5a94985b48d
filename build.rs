//! Sets `cfg(engines)` when the build has a store backend. Nothing is generated here: the
//! bundled specs' modules are the committed snapshot in `generated/` (`specmint generate`
//! writes it; a test regenerates it and compares), so a crate that depends on specmint does
//! not build the code generator.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // `cfg(engines)`: the Action Envelope engine and the Task Envelope lifecycle, on whichever
    // store backends the build has.
    println!("cargo::rustc-check-cfg=cfg(engines)");
    if std::env::var_os("CARGO_FEATURE_SQLITE").is_some()
        || std::env::var_os("CARGO_FEATURE_POSTGRES").is_some()
    {
        println!("cargo::rustc-cfg=engines");
    }
}
