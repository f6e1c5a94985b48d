//! The Webhook Event v1 types, generated from `spec/webhook_event.md` by build.rs. Generated
//! code must not warn in a user's crate, so this one denies warnings.
#![deny(warnings)]

pub mod webhook_event {
    include!(concat!(env!("OUT_DIR"), "/rust/webhook_event.rs"));
}
