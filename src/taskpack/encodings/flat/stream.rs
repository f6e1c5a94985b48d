//! The attachments' data strings of a flat file read as they stream, never held: the facts
//! the digest rule reads of each (the generic judge's streamed reading), and the decoding of
//! one string from its span in the file.

use super::*;

/// The digest rule's facts about each attachment of the flat file whose skeleton is
/// `skeleton`, its `data` string streamed from `reader` (see [`streamed_digest`]), by the path
/// of the attachment (`attachments[2]`), read through the same views as [`read_flat`]: an
/// attachment with no `data` string or no known encoding has none (the rules report it).
/// `None` when a string cannot be read.
pub(crate) fn streamed_facts<R: Read + Seek>(
    reader: &mut R,
    skeleton: &skeleton::Skeleton,
) -> Option<specmint_runtime::rules::StreamedData> {
    let mut found = specmint_runtime::rules::StreamedData::new();
    let Ok(raw) = Json::parse(&skeleton.text) else {
        return Some(found);
    };
    let members: FlatMembers = lenient::view(&raw);
    let items = members
        .attachments
        .as_ref()
        .and_then(Json::as_array)
        .unwrap_or_default();
    let spans = skeleton.spans.last().map_or(&[][..], Vec::as_slice);
    let list = specmint_runtime::Path::ROOT.field("attachments");
    for (index, (item, span)) in items.iter().zip(spans).enumerate() {
        let base64 = match lenient::view::<AttachmentMembers>(item).encoding {
            Some(AttachmentEncoding::Utf8) => false,
            Some(AttachmentEncoding::Base64) => true,
            None => continue,
        };
        let Some(span) = span else { continue };
        found.insert(&list.index(index), streamed_digest(reader, *span, base64)?);
    }
    Some(found)
}

/// The flat form as the generic judge reads it in bounded memory (`bundled`'s `streamed`): the
/// skeleton of the file (its attachments' data strings left out), their facts as they streamed
/// ([`streamed_facts`]), and how a place in the skeleton moves back to the file. `None` when
/// the skeleton cannot be made (a file that is not UTF-8, a data string that is not a JSON
/// string, more than [`MAX_SKELETON_BYTES`] besides the data) or a string cannot be read.
pub(crate) fn read_streamed(
    mut reader: &mut dyn crate::bundled::ReadSeek,
) -> std::io::Result<Option<crate::bundled::Streamed>> {
    reader.rewind()?;
    let Ok(skeleton) = skeleton::skeleton(BufReader::new(&mut *reader)) else {
        return Ok(None);
    };
    let Some(facts) = streamed_facts(&mut reader, &skeleton) else {
        return Ok(None);
    };
    let elided = skeleton.elided;
    Ok(Some(crate::bundled::Streamed {
        text: skeleton.text,
        facts,
        unshift: Box::new(move |line, column, in_chars| {
            Span::unshift(&elided, line, column, in_chars)
        }),
    }))
}

/// The digest rule's facts about the data string at `span` (`runtime::rules::Streamed`),
/// decoded as it streams: `None` when it cannot be read.
pub(super) fn streamed_digest<R: Read + Seek>(
    reader: &mut R,
    span: Span,
    base64: bool,
) -> Option<specmint_runtime::rules::Streamed> {
    let mut hasher = Sha256::new();
    let mut length = 0u64;
    let decoded = decode_span(reader, span, base64, "", &mut |bytes| {
        hasher.update(bytes);
        length += bytes.len() as u64;
        Ok(())
    });
    let decoded = match decoded {
        Ok(()) => true,
        Err(FlatError::Attachment { reason, .. }) if reason.starts_with(NOT_BASE64) => false,
        Err(_) => return None,
    };
    Some(specmint_runtime::rules::Streamed {
        decoded,
        sha256: hasher.finalize().into(),
        length,
    })
}

/// How a refusal of base64 that does not decode begins.
pub(crate) const NOT_BASE64: &str = "`data` is not valid base64";

/// Streams the bytes a `data` string holds: unescaped, then base64-decoded when `base64`.
pub(crate) fn decode_span<R: Read + Seek>(
    reader: &mut R,
    span: Span,
    base64: bool,
    name: &str,
    sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
) -> Result<(), FlatError> {
    let fail = |reason: String| FlatError::Attachment {
        name: name.to_owned(),
        reason,
    };
    let io = |e: std::io::Error| fail(format!("cannot be read: {e}"));
    let not_base64 = |e: base64::DecodeError| fail(format!("{NOT_BASE64} ({e})"));
    reader.seek(SeekFrom::Start(span.start)).map_err(io)?;
    let mut input = (&mut *reader).take(span.end - span.start);
    let mut buffer = vec![0u8; 1 << 16];
    let mut text = Vec::with_capacity(1 << 16);
    let mut bytes = Vec::with_capacity(1 << 16);
    let mut unescape = Unescape::default();
    let mut decoder = Base64Stream::default();
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        text.clear();
        unescape
            .feed(&buffer[..n], &mut text)
            .map_err(|_| fail("changed while it was read".to_owned()))?;
        let out = if base64 {
            bytes.clear();
            decoder.feed(&text, &mut bytes).map_err(not_base64)?;
            &bytes
        } else {
            &text
        };
        if !out.is_empty() {
            sink(out).map_err(io)?;
        }
    }
    if unescape.consumed != span.end - span.start || !unescape.at_rest() {
        return Err(fail("changed while it was read".to_owned()));
    }
    if base64 {
        bytes.clear();
        decoder.finish(&mut bytes).map_err(not_base64)?;
        if !bytes.is_empty() {
            sink(&bytes).map_err(io)?;
        }
    }
    Ok(())
}
