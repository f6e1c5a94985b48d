//! The committed generated Rust compiles on its own (it is the snapshot, not OUT_DIR's copy)
//! inside a module that shadows the prelude names generated code must not rely on.
#![deny(warnings)]

#[allow(dead_code, non_camel_case_types)]
pub mod shadowed {
    struct Result;
    struct Option;
    struct String;
    struct Vec;
    struct Box;
    struct Some;
    struct None;
    struct Ok;
    struct Err;
    mod serde {}
    mod core {}
    mod std {}

    // Included right here, so the shadowing names above are in scope for the generated items.
    include!("../generated/rust/task_packet.rs");
}

#[test]
fn snapshot_types_work_under_shadowed_names() {
    let packet = shadowed::TaskPacket::from_json_str(shadowed::MINIMAL_PACKET_EXAMPLE);
    assert!(packet.is_ok());
}
