//! The commands, one module per command family: each reads its arguments (declared in
//! [`crate::args`]), runs the library and prints its verdict ([`crate::output`]).

mod bulk;
pub mod diff;
pub mod envelope;
pub mod handoff;
pub mod landing;
pub mod passport;
pub mod spec;
pub mod task;
pub mod taskpack;
