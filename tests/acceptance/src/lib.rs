//! The Webhook Event v1 types, generated from `spec/webhook_event.md` by build.rs.

pub mod webhook_event {
    include!(concat!(env!("OUT_DIR"), "/rust/webhook_event.rs"));
}
