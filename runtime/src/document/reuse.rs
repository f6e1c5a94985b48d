//! The verdict read into a value the thread keeps ([`accepts`](super::accepts) with the
//! runtime's `in-place` feature).
//!
//! [`accepted_document`](super::accepted_document) reads each document into a value of its
//! own: every string and list of it allocated, copied and freed again, about a quarter of a
//! verdict's instructions on a typical document. A caller that only needs the verdict (a
//! binding's `valid`) reads instead into a value this thread keeps for the type, with serde's
//! `deserialize_in_place`: strings and lists are overwritten in the capacity the previous
//! document left, so a verdict allocates little or nothing and frees nothing. Serde's derive
//! writes those readers with `serde_derive`'s `deserialize_in_place` feature, which the
//! runtime's `in-place` turns on (for the whole build: see `runtime/Cargo.toml`). Every field
//! is written or refused by each read (serde's in-place reading sets an absent field to its
//! default and refuses a missing required one), so the rules see the value a fresh read would
//! give; debug builds, so every test, check the verdict against
//! [`accepted_document`](super::accepted_document)'s.

use core::any::{Any, TypeId};
use core::cell::RefCell;

use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer};

use super::{parse_strict, passes, verdict_read, DocumentSpec};
use crate::rules::StreamedData;
use crate::Validate;

/// A document longer than this is read into a value of its own, dropped after its verdict:
/// the value a thread keeps holds at most about this much text per type.
const KEEP_MAX: usize = 256 * 1024;

/// [`accepts_then`](super::accepts_then), read into this thread's value for `T`.
pub(super) fn accepts_then<T>(
    input: &[u8],
    spec: &DocumentSpec,
    then: impl FnOnce(&T) -> bool,
) -> bool
where
    T: DeserializeOwned + Validate + 'static,
{
    let slot = take::<T>();
    let accepted = verdict_read(input, spec, |text| parse_strict(text, InPlace(&slot)))
        .is_some_and(|((), text)| {
            let value = slot.borrow();
            let value = value.as_ref().expect("a successful read fills the slot");
            passes(value, text, spec, StreamedData::new())
        });
    #[cfg(debug_assertions)]
    assert_eq!(
        accepted,
        super::accepted_document::<T>(input, spec, StreamedData::new()).is_some(),
        "a verdict read in place differs from a fresh read's on {:?}",
        String::from_utf8_lossy(input)
    );
    let verdict = accepted && then(slot.borrow().as_ref().expect("an accepted read fills it"));
    if input.len() <= KEEP_MAX {
        keep(slot);
    }
    verdict
}

/// A value kept for reading in place: empty until the first read.
type Slot<T> = RefCell<Option<T>>;

/// Reads into the slot: in place over the value it holds, else a fresh value.
struct InPlace<'s, T>(&'s Slot<T>);

impl<T> Clone for InPlace<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for InPlace<'_, T> {}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for InPlace<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let mut slot = self.0.borrow_mut();
        match &mut *slot {
            // A read that fails part way leaves the value half written; the next read writes
            // every field again.
            Some(place) => T::deserialize_in_place(deserializer, place),
            None => {
                *slot = Some(T::deserialize(deserializer)?);
                Ok(())
            }
        }
    }
}

/// Per type, the value this thread reads verdicts into (`None` while in use).
type Slots = Vec<(TypeId, Option<Box<dyn Any>>)>;

thread_local! {
    static SLOTS: RefCell<Slots> = const { RefCell::new(Vec::new()) };
}

/// This thread's slot for `T`, taken out (a verdict inside a verdict's rules finds none and
/// reads into a new one), else a new one.
fn take<T: 'static>() -> Box<Slot<T>> {
    let kept = SLOTS
        .try_with(|slots| {
            let mut slots = slots.borrow_mut();
            let (_, slot) = slots.iter_mut().find(|(id, _)| *id == TypeId::of::<T>())?;
            slot.take()
        })
        .ok()
        .flatten();
    kept.and_then(|slot| slot.downcast().ok())
        .unwrap_or_else(|| Box::new(RefCell::new(None)))
}

/// Puts `slot` back as this thread's slot for `T`.
fn keep<T: 'static>(slot: Box<Slot<T>>) {
    // A thread being torn down keeps nothing.
    let _ = SLOTS.try_with(|slots| {
        let mut slots = slots.borrow_mut();
        match slots.iter_mut().find(|(id, _)| *id == TypeId::of::<T>()) {
            Some((_, kept)) => *kept = Some(slot),
            None => slots.push((TypeId::of::<T>(), Some(slot))),
        }
    });
}
