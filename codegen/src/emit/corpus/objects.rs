//! Mutation family: object levels. An unknown key and the forbidden keys in every object
//! the corpus reaches, and each object's own rules (`not_contains`, `digest`).

use serde_json::{json, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    /// Whether the object the hops reach (the root when none) is open.
    fn level_is_open(&self, hops: &[Hop<'a>]) -> bool {
        let name = match hops.last() {
            None => self.spec.root.as_str(),
            Some(h) => match &h.field.ty.base {
                Base::Object(n) => n.as_str(),
                _ => return false,
            },
        };
        matches!(self.spec.type_def(name), Some(TypeDef::Object(o)) if o.open)
    }

    /// An unknown key and a forbidden key in every object the corpus reaches, and the object
    /// rules (`not_contains`, `digest`) of each.
    pub(super) fn object_levels(&mut self, base: &Value, locations: &[Vec<Hop<'a>>]) {
        let parse = self.spec.errors.parse.as_str();
        // The root, then each object-typed location (by the hops that reach it).
        let mut levels: Vec<Vec<Hop<'a>>> = vec![vec![]];
        for hops in locations {
            if self.entered(hops.last().expect("non-empty")).is_some() {
                levels.push(hops.clone());
            }
        }
        let forbidden = self.spec.forbidden_keys.clone();
        let fk_code = self.spec.errors.forbidden_key.clone();
        for hops in levels {
            let mut doc = base.clone();
            self.walk_mut(&mut doc, &hops);
            let at = match hops.last() {
                None => String::new(),
                Some(h) => dotted(&hops) + if h.field.ty.array { "[0]" } else { "" },
            };
            let level_id = if at.is_empty() {
                "$root".to_owned()
            } else {
                at.clone()
            };
            let loc = Loc {
                hops: &hops,
                path: at.clone(),
                scope: scope_of(&hops),
            };
            // An open object keeps an unknown key: no case to refuse it.
            if !self.level_is_open(&hops) {
                let mut d = doc.clone();
                self.walk_mut(&mut d, &hops)
                    .insert(UNKNOWN_KEY.to_owned(), json!("x"));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("unknown_key.{level_id}"),
                        format!("an unknown key `{UNKNOWN_KEY}` in the object at `{level_id}`"),
                        "unknown_key",
                        d,
                    )
                    .errors(vec![(parse.to_owned(), join(&at, UNKNOWN_KEY))]),
                );
            }
            let keys: Vec<&String> = if at.is_empty() {
                forbidden.iter().collect()
            } else {
                forbidden.iter().take(1).collect()
            };
            for k in keys {
                let mut d = doc.clone();
                self.walk_mut(&mut d, &hops).insert(k.clone(), json!([]));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("forbidden_key.{level_id}.{k}"),
                        format!("the forbidden key `{k}` in the object at `{level_id}`"),
                        "forbidden_key",
                        d,
                    )
                    .errors(vec![(fk_code.clone(), join(&at, k))]),
                );
            }
            let o = match hops.last() {
                None => self.spec.root_object(),
                Some(h) => self.entered(h).expect("an object level"),
            };
            self.not_contains(&doc, &loc, o, &level_id);
            self.digests(&doc, &loc, o, &level_id);
            self.guarded(&doc, &loc, o, &level_id);
        }
    }

    /// `not_contains`: the list holding the object's own value, once and among others.
    pub(super) fn not_contains(&mut self, doc: &Value, loc: &Loc<'a, '_>, o: &Object, level: &str) {
        let (hops, at) = (loc.hops, loc.path.as_str());
        for n in &o.not_contains {
            let (Some(lf), Some(vf)) = (
                o.fields.iter().find(|f| f.key == n.list.key),
                o.fields.iter().find(|f| f.key == n.value.key),
            ) else {
                continue;
            };
            let own = self.synth_text(vf, 11).as_str().unwrap_or("own").to_owned();
            let other = self
                .synth_text(lf, 12)
                .as_str()
                .unwrap_or("other")
                .to_owned();
            for (label, list, bad) in [
                ("self", vec![own.clone()], vec![0]),
                (
                    "self_among_others",
                    vec![other.clone(), own.clone()],
                    vec![1],
                ),
                ("others", vec![other.clone()], vec![]),
                ("case_differs", vec![own.to_uppercase()], vec![]),
            ] {
                if label == "case_differs" && own.to_uppercase() == own {
                    continue;
                }
                let mut d = doc.clone();
                let obj = self.walk_mut(&mut d, hops);
                obj.insert(n.value.key.clone(), json!(own));
                obj.insert(n.list.key.clone(), json!(list));
                let list_path = join(at, &n.list.key);
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("not_contains.{level}.{}.{label}", n.list.key),
                        format!("`{list_path}` = {list:?} with `{}` = `{own}`", n.value.key),
                        "not_contains",
                        d,
                    )
                    .x_only()
                    .errors(
                        bad.iter()
                            .map(|i| (n.code.clone(), format!("{list_path}[{i}]")))
                            .collect(),
                    ),
                );
            }
        }
    }

    /// `digest`: matching content (also with an upper-case digest), a wrong digest, a wrong
    /// length, and content that does not decode.
    pub(super) fn digests(&mut self, doc: &Value, loc: &Loc<'a, '_>, o: &Object, level: &str) {
        let (hops, at) = (loc.hops, loc.path.as_str());
        for (k, d) in o.digest.iter().enumerate() {
            let mut good = doc.clone();
            {
                let obj = self.walk_mut(&mut good, hops);
                if !obj.get(&d.sha256.key).is_some_and(Value::is_string) {
                    obj.insert(d.sha256.key.clone(), json!(""));
                }
                self.fix_digests(o, obj, None);
            }
            let obj = self.walk_mut(&mut good.clone(), hops).clone();
            let sha = obj
                .get(&d.sha256.key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let mut cases: Vec<(&str, String, Value, Expected)> = Vec::new();
            cases.push((
                "matches",
                "declared digest and length match".into(),
                good.clone(),
                vec![],
            ));
            let mut upper = good.clone();
            self.walk_mut(&mut upper, hops)
                .insert(d.sha256.key.clone(), json!(sha.to_uppercase()));
            cases.push((
                "upper_hex",
                "the digest in upper-case hex".into(),
                upper,
                vec![],
            ));
            let mut wrong = good.clone();
            let flipped: String = sha
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i == 0 {
                        if c == '0' {
                            '1'
                        } else {
                            '0'
                        }
                    } else {
                        c
                    }
                })
                .collect();
            self.walk_mut(&mut wrong, hops)
                .insert(d.sha256.key.clone(), json!(flipped));
            cases.push((
                "wrong_sha256",
                "a declared digest that does not match".into(),
                wrong,
                vec![(d.code.clone(), join(at, &d.sha256.key))],
            ));
            if let Some(Member { key: len, .. }) = &d.length {
                let mut long = good.clone();
                let obj = self.walk_mut(&mut long, hops);
                let n = obj.get(len).and_then(Value::as_u64).unwrap_or(0);
                obj.insert(len.clone(), json!(n + 1));
                cases.push((
                    "wrong_length",
                    "a declared length one more than the content".into(),
                    long,
                    vec![(d.code.clone(), join(at, len))],
                ));
            }
            let enc_field = o.fields.iter().find(|f| f.key == d.encoding.key);
            let b64_ok = match enc_field.map(|f| &f.ty.base) {
                Some(Base::Enum(e)) => self.enum_values(e).contains(&"base64"),
                _ => true,
            };
            if b64_ok {
                let mut bad = good.clone();
                let obj = self.walk_mut(&mut bad, hops);
                obj.insert(d.encoding.key.clone(), json!("base64"));
                obj.insert(d.data.key.clone(), json!("%%%="));
                cases.push((
                    "bad_base64",
                    "base64 content that does not decode (reported alone)".into(),
                    bad,
                    vec![(d.code.clone(), join(at, &d.data.key))],
                ));
            }
            for (label, what, document, errors) in cases {
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("digest.{level}.{k}.{label}"),
                        format!("`{level}`: {what}"),
                        "digest",
                        document,
                    )
                    .x_only()
                    .errors(errors),
                );
            }
        }
    }
}
