//! The Webhook Event v1, Clinic Booking v1 and Core Invoice v1 types, generated from `spec/` by build.rs. Generated
//! code must not warn in a user's crate, so this one denies warnings.
#![deny(warnings)]

pub mod webhook_event {
    include!(concat!(env!("OUT_DIR"), "/rust/webhook_event.rs"));
}

pub mod clinic_booking {
    include!(concat!(env!("OUT_DIR"), "/rust/clinic_booking.rs"));
}

pub mod core_invoice {
    include!(concat!(env!("OUT_DIR"), "/rust/core_invoice.rs"));
}
