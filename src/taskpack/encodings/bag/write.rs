//! Writing a bag: its tag files (`bagit.txt`, `bag-info.txt`, the manifests) from the pack
//! object, the bag assembled from them and the luggage, and the zip written with the times
//! and options the reference writes.

use super::*;

/// What the tag files say of a pack object, each member as written (any type): the reference
/// writes what it finds with JavaScript's `String()`, so a number is said as a number.
#[derive(Default, serde::Deserialize)]
pub(super) struct Tagged {
    #[serde(default, deserialize_with = "present")]
    spec: Option<Json>,
    #[serde(default, deserialize_with = "present")]
    packed_at: Option<Json>,
    #[serde(default, deserialize_with = "lenient::view_or_default")]
    origin: TaggedOrigin,
    /// The task state's `id` and `title`.
    #[serde(default, deserialize_with = "lenient::view_or_default")]
    passport: TaggedState,
}

/// `origin.actor` and `origin.machine` as written.
#[derive(Default, serde::Deserialize)]
pub(super) struct TaggedOrigin {
    #[serde(default, deserialize_with = "present")]
    actor: Option<Json>,
    #[serde(default, deserialize_with = "present")]
    machine: Option<Json>,
}

/// The task state's `id` and `title` as written.
#[derive(Default, serde::Deserialize)]
pub(super) struct TaggedState {
    #[serde(default, deserialize_with = "present")]
    id: Option<Json>,
    #[serde(default, deserialize_with = "present")]
    title: Option<Json>,
}

/// The four tag files for a pack object and its payload (`(path, size, sha256)`, pack object
/// first), exactly as the reference derives them.
pub fn tag_files(passport: &Json, payload: &[(&str, u64, [u8; 32])]) -> Vec<Entry> {
    let tagged: Tagged = lenient::view(passport);
    let origin_field = |value: Option<&Json>| {
        if Json::truthy(value) {
            Json::js_string(value)
        } else {
            String::new()
        }
    };
    let or_js = |value: Option<&Json>, fallback: Option<&Json>| {
        if Json::truthy(value) {
            Json::js_string(value)
        } else {
            Json::js_string(fallback)
        }
    };
    let one_line = |text: &str, max_utf16: usize| js_slice(&collapse_newlines(text), max_utf16);
    let id = tagged.passport.id.as_ref();
    let title = tagged.passport.title.as_ref();
    let actor = origin_field(tagged.origin.actor.as_ref());
    let machine = origin_field(tagged.origin.machine.as_ref());
    let packed_at = Json::js_string(tagged.packed_at.as_ref());
    let spec = or_js(tagged.spec.as_ref(), Some(&Json::Str(BAG_SPEC.to_owned())));
    let octets: u64 = payload.iter().map(|(_, size, _)| size).sum();
    let bag_info = [
        "Bag-Software-Agent: task-passport".to_owned(),
        format!("Bagging-Date: {}", js_slice(&packed_at, 10)),
        format!("External-Identifier: {}", Json::js_string(id)),
        format!("External-Description: {}", one_line(&or_js(title, id), 200)),
        format!(
            "Source-Organization: {}",
            one_line(if actor.is_empty() { "unknown" } else { &actor }, 120)
        ),
        format!(
            "Internal-Sender-Identifier: {}",
            one_line(
                if machine.is_empty() {
                    "unknown"
                } else {
                    &machine
                },
                120
            )
        ),
        format!("Payload-Oxum: {octets}.{}", payload.len()),
        format!("Bag-Spec: {spec}"),
    ]
    .join("\n")
        + "\n";
    let manifest: String = payload
        .iter()
        .map(|(path, _, digest)| format!("{}  {path}\n", hex(digest)))
        .collect();
    let mut tags = vec![
        Entry::new(BAGIT_TXT, BAGIT_DECLARATION.as_bytes().to_vec()),
        Entry::new(BAG_INFO_TXT, bag_info.into_bytes()),
        Entry::new(MANIFEST, manifest.into_bytes()),
    ];
    let tag_manifest: String = tags
        .iter()
        .map(|e| format!("{}  {}\n", hex(&e.sha256), e.name))
        .collect();
    tags.push(Entry::new(TAG_MANIFEST, tag_manifest.into_bytes()));
    tags
}

/// `text.replace(/[\r\n]+/g, ' ')`.
pub(super) fn collapse_newlines(text: &str) -> String {
    replace_runs(text, |c| matches!(c, '\r' | '\n'), ' ')
}

/// Every maximal run of characters matching `hit` replaced by one `with`.
pub(super) fn replace_runs(text: &str, hit: impl Fn(char) -> bool, with: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if !hit(c) {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push(with);
            in_run = true;
        }
    }
    out
}

/// `text.slice(0, n)` in UTF-16 code units, written back as UTF-8 the way Node writes it (a
/// surrogate pair cut in half becomes U+FFFD).
pub(super) fn js_slice(text: &str, n: usize) -> String {
    let mut out = String::new();
    let mut units = 0;
    for c in text.chars() {
        let width = c.len_utf16();
        if units + width > n {
            if units < n {
                out.push('\u{fffd}');
            }
            break;
        }
        units += width;
        out.push(c);
    }
    out
}

/// The entries of a bag for a pack object and its luggage, in the reference's order: the four
/// tag files, `data/passport.json`, then `data/files/<name>` in the given order. The pack object
/// is written as `JSON.stringify(passport, null, 2)` plus a newline. Nothing is repaired or
/// refused here: that is packing's job, not the encoding's.
pub fn assemble(passport: &Json, luggage: Vec<(String, Vec<u8>)>) -> Bag {
    let luggage = luggage
        .into_iter()
        .map(|(name, bytes)| Entry::new(format!("{FILES_DIR}{name}"), bytes))
        .collect();
    assemble_entries(passport, luggage)
}

/// [`assemble`] with the luggage's entries made already (`data/files/<name>`; their bytes may
/// be left out, as when they were streamed).
pub(crate) fn assemble_entries(passport: &Json, luggage: Vec<Entry>) -> Bag {
    let mut payload = vec![Entry::new(
        PASSPORT_JSON,
        format!("{}\n", passport.to_js_pretty()).into_bytes(),
    )];
    payload.extend(luggage);
    let listed: Vec<(&str, u64, [u8; 32])> = payload
        .iter()
        .map(|e| (e.name.as_str(), e.size, e.sha256))
        .collect();
    let mut entries = tag_files(passport, &listed);
    entries.extend(payload);
    Bag { entries }
}

/// Writes a bag as a zip: entries in order, deflated, each stamped with the pack's `packed_at`
/// (so the same bag always makes the same bytes), permissions 0644. Every entry must hold its
/// bytes.
pub fn write_zip<W: Write + Seek>(out: W, bag: &Bag, packed_at: &str) -> zip::result::ZipResult<W> {
    let mut writer = zip::ZipWriter::new(out);
    for entry in &bag.entries {
        let bytes = entry
            .bytes
            .as_deref()
            .expect("a bag to write holds its bytes");
        writer.start_file(
            entry.name.as_str(),
            entry_options(packed_at, bytes.len() as u64),
        )?;
        writer.write_all(bytes)?;
    }
    writer.finish()
}

/// How every entry of a bag is written: deflated at level 6, stamped with the pack's
/// `packed_at`, permissions 0644, zip64 when `size` needs it.
pub(crate) fn entry_options(packed_at: &str, size: u64) -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(dos_time(packed_at))
        .unix_permissions(0o644)
        .large_file(size >= u32::MAX as u64)
}

/// The DOS time of an RFC 3339 `packed_at` (its date and time as written), or the DOS epoch.
pub(super) fn dos_time(packed_at: &str) -> zip::DateTime {
    let number = |range: std::ops::Range<usize>| packed_at.get(range)?.parse::<u16>().ok();
    let parts = (|| {
        Some((
            number(0..4)?,
            number(5..7)?,
            number(8..10)?,
            number(11..13)?,
            number(14..16)?,
            number(17..19)?,
        ))
    })();
    parts
        .and_then(|(y, mo, d, h, mi, s)| {
            zip::DateTime::from_date_and_time(y, mo as u8, d as u8, h as u8, mi as u8, s as u8).ok()
        })
        .unwrap_or_default()
}
