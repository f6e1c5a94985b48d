#![no_main]
//! The spec loader on arbitrary Markdown + TOML (split at the first NUL byte): a model or
//! diagnostics, never a panic; every diagnostic names one of the two files and a position
//! inside it. A spec that loads is also rendered (emission cannot fail).

use libfuzzer_sys::fuzz_target;
use specmint_codegen::{generate, load, Options, SpecSource};

fuzz_target!(|data: &[u8]| {
    let (md, toml) = specmint_fuzz::split_at_byte(data, 0);
    let source = SpecSource {
        name: "fuzzed".to_owned(),
        md_path: "spec/fuzzed.md".to_owned(),
        md: String::from_utf8_lossy(md).into_owned(),
        toml_path: "spec/fuzzed.toml".to_owned(),
        toml: String::from_utf8_lossy(toml).into_owned(),
        locales: Vec::new(),
    };
    match load(&source) {
        Ok(_) => {
            generate(std::slice::from_ref(&source), &Options::default())
                .expect("a spec that loads also generates");
        }
        Err(diagnostics) => {
            assert!(!diagnostics.0.is_empty(), "an error with no diagnostic");
            for d in diagnostics.iter() {
                let text = if d.file == source.md_path {
                    &source.md
                } else {
                    assert_eq!(d.file, source.toml_path, "{d:?}");
                    &source.toml
                };
                // Line 0 means "the whole file"; otherwise a line that exists (or the one
                // just past a final line break; CR, LF and CRLF all end a line).
                assert!(d.pos.line <= text.split(['\n', '\r']).count(), "{d:?}");
            }
            let _ = diagnostics.to_string();
        }
    }
});
