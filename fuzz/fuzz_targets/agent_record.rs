#![no_main]
//! The team record a filing reads (`agents/<id>/agent.toml`, or the role member's under
//! `agents/.ephemeral/`): arbitrary bytes as the record, then a filing by that agent of a
//! minimal packet with the identity keys left for the record to fill in.
//!
//! Asserts: a refusal carries one of the spec's codes and a message; nothing is written
//! outside the home; a filing that succeeds wrote the file it names, inside `team_packets/`.

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use specmint::task_packet::handoff::team_handoff_bytes;
use specmint::task_packet::PacketError;

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| specmint_fuzz::scratch_dir("agent"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, record)) = data.split_first() else {
        return;
    };
    let root = scratch();
    let _ = std::fs::remove_dir_all(root);
    let home = root.join("home");
    let member = if first % 2 == 0 {
        "agents/.ephemeral/eph-p1"
    } else {
        "agents/eph-p1"
    };
    std::fs::create_dir_all(home.join(member)).unwrap();
    std::fs::write(home.join(member).join("agent.toml"), record).unwrap();
    let packet = br#"{"packet_id":"pk-1","objective":"do it","output_format":"markdown"}"#;
    match team_handoff_bytes(&home, "eph-p1", Some(packet)) {
        Ok(filed) => {
            assert!(filed.path.starts_with("team_packets/") && !filed.path.contains(".."));
            assert_eq!(
                std::fs::metadata(home.join(&filed.path)).unwrap().len() as usize,
                filed.bytes
            );
        }
        Err(refusal) => {
            assert!(
                PacketError::ALL.contains(&refusal.code),
                "`{}` is not a code of the spec",
                refusal.code
            );
            assert!(!refusal.message.is_empty());
        }
    }
    for entry in std::fs::read_dir(root).unwrap() {
        assert_eq!(
            entry.unwrap().file_name(),
            "home",
            "written outside the home"
        );
    }
});
