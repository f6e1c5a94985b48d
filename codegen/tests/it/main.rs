//! specmint-codegen's integration tests, one binary: a module per concern. Run one with
//! `cargo test -p specmint-codegen --test it <module>::`, e.g. `random_specs::`.

mod common;
mod random_spec;

mod absent_groups;
mod compiles;
mod condition_forms;
mod conditions;
mod corpus_probes;
mod decimals;
mod diff_random;
mod dump;
mod enum_codes;
mod extensions;
mod formats;
mod guarded_rules;
mod integers;
mod io;
mod keys;
mod large;
mod locales;
mod minimums;
mod mistakes;
mod numbers;
mod order;
mod patterns;
mod random_specs;
mod rules_tables;
mod shared_tables;
mod short_form;
mod specs;
mod state_fields;
mod task_packet;
mod template_detail;
mod union_members;
