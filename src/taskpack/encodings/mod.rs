//! A pack's two encodings (TaskPack §2) and what reads and writes them: the `.taskpack` zip
//! holding a BagIt bag ([`bag`]), the flat `.taskpack.json` ([`flat`], read in bounded memory
//! through its skeleton), writing either with the luggage streamed (`encode`), reading a pack
//! that arrives ([`unpack`]) and reading or converting a pack file by its extension
//! ([`convert`]).

pub mod bag;
pub mod convert;
pub(crate) mod encode;
pub mod flat;
pub(crate) mod skeleton;
pub mod unpack;
