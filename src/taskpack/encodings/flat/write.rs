//! Writing the flat form, and converting between it and a bag.

use super::*;

/// Writes the flat form: `JSON.stringify(flat, null, 2)` plus a newline, attachments in order,
/// `utf8` when [`is_readable_text`], else `base64`. With `max_inline`, an attachment larger than
/// it is refused by name (§2.2 lets a writer refuse above 1 MiB; the model has no such limit).
pub fn write_flat(
    passport: &Json,
    attachments: &[LuggageFile],
    max_inline: Option<u64>,
) -> Result<String, FlatError> {
    let mut items = Vec::with_capacity(attachments.len());
    for attachment in attachments {
        let size = attachment.bytes.len() as u64;
        if let Some(limit) = max_inline.filter(|limit| size > *limit) {
            return Err(FlatError::TooLargeToInline {
                name: attachment.name.clone(),
                bytes: size,
                limit,
            });
        }
        let (encoding, data) = if is_readable_text(&attachment.bytes) {
            let text = std::str::from_utf8(&attachment.bytes).expect("readable text is UTF-8");
            ("utf8", text.to_owned())
        } else {
            let encoded = base64::engine::general_purpose::STANDARD.encode(&attachment.bytes);
            ("base64", encoded)
        };
        let string = |s: &str| Json::Str(s.to_owned());
        items.push(Json::Object(vec![
            ("name".to_owned(), string(&attachment.name)),
            ("encoding".to_owned(), string(encoding)),
            (
                "sha256".to_owned(),
                string(&hex(&Sha256::digest(&attachment.bytes).into())),
            ),
            ("bytes".to_owned(), Json::Number(size.into())),
            ("data".to_owned(), Json::Str(data)),
        ]));
    }
    let flat = Json::Object(vec![
        ("taskpack".to_owned(), Json::Str(FLAT_VERSION.to_owned())),
        ("encoding".to_owned(), Json::Str("flat".to_owned())),
        (
            "note_to_reader".to_owned(),
            Json::Str(NOTE_TO_READER.to_owned()),
        ),
        ("passport".to_owned(), passport.clone()),
        ("attachments".to_owned(), Json::Array(items)),
    ]);
    Ok(format!("{}\n", flat.to_js_pretty()))
}

/// The bag a flat pack stands for (see [`bag::assemble`]).
pub fn to_bag(pack: &FlatPack) -> Bag {
    let luggage = pack
        .attachments
        .iter()
        .map(|a| (a.name.clone(), a.bytes.clone()))
        .collect();
    bag::assemble(&pack.passport, luggage)
}

/// The pack object and luggage of a bag whose luggage bytes were kept, for the flat form.
pub fn from_bag(bag: &Bag) -> Result<(Json, Vec<LuggageFile>), FlatError> {
    let passport = passport_of(bag)?;
    let attachments = bag
        .entries
        .iter()
        .filter_map(|entry| {
            let name = entry.name.strip_prefix(FILES_DIR)?;
            Some(LuggageFile {
                name: name.to_owned(),
                bytes: entry
                    .bytes
                    .clone()
                    .expect("a bag read for the flat form keeps its luggage"),
            })
        })
        .collect();
    Ok((passport, attachments))
}

/// The pack object of a bag (its `data/passport.json`, which must be a JSON object), as the
/// flat form carries it.
pub(crate) fn passport_of(bag: &Bag) -> Result<Json, FlatError> {
    let raw = bag
        .bytes(PASSPORT_JSON)
        .ok_or_else(|| FlatError::NotTaskPack(format!("{PASSPORT_JSON} is missing")))?;
    let text = std::str::from_utf8(raw)
        .map_err(|e| FlatError::NotJson(format!("{PASSPORT_JSON}: {e}")))?;
    let passport = Json::parse(strip_bom(text))
        .map_err(|e| FlatError::NotJson(format!("{PASSPORT_JSON}: {e}")))?;
    if !passport.is_object() {
        return Err(FlatError::NoPassport);
    }
    Ok(passport)
}
