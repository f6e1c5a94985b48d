//! The type index: every table by name and kind, the models built so far, and path
//! resolution through them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::diag::Pos;
use crate::model::*;
use crate::names::upper_camel;

/// What a named table defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Enum,
    Union,
    /// A states table: a field may be typed by it (read like an enum of its states).
    States,
}

/// A resolved path: a field of an object, possibly stepping into its elements.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target {
    pub obj: usize,
    pub field: usize,
    pub elems: bool,
}

/// A cap path's last step into a union field's member (`signature.chain`): the union, and
/// the member's key, which may appear in several variants.
#[derive(Debug, Clone)]
pub(super) struct MemberTarget {
    pub union: usize,
    pub key: String,
    pub elems: bool,
}

/// Why a path does not resolve.
pub(super) enum Unresolved {
    /// It goes through a row already reported as broken: say nothing more.
    Silent,
    /// What is wrong, for the message.
    Why(String),
}

/// The tables of one spec by name, and the objects, enums and unions built from them.
#[derive(Default)]
pub(super) struct TypeIndex {
    /// table name → kind
    pub kinds: BTreeMap<String, Kind>,
    /// `[types]`: table name → Rust type name.
    pub rust_names: BTreeMap<String, String>,
    pub objects: Vec<Object>,
    /// object name → index in `objects`; per object, field key → index in its `fields`.
    /// Paths are resolved through these, so a spec's check time grows linearly with its rows.
    object_by_name: HashMap<String, usize>,
    field_by_key: Vec<HashMap<String, usize>>,
    pub enums: Vec<Enum>,
    /// Each states table's states read as an enum, for the defaults of fields it types
    /// (the machine itself is checked later).
    pub state_enums: Vec<Enum>,
    pub unions: Vec<Union>,
    /// spec order: (kind, index); `usize::MAX` until the table is built.
    pub order: Vec<(Kind, usize)>,
    /// (table, key) of rows already reported as broken: paths through them stay silent.
    pub poisoned: BTreeSet<(String, String)>,
    /// Names (in their heading) of tables already reported as not read (`near_kind`): a
    /// Type cell naming one stays silent.
    pub refused: BTreeSet<String>,
    /// (table, key) → position of the row's Type cell.
    pub type_pos: BTreeMap<(String, String), Pos>,
}

impl TypeIndex {
    /// The Rust type name of a table: `[types]`, else UpperCamelCase of its name.
    pub fn rust_name_of(&self, name: &str) -> String {
        self.rust_names
            .get(name)
            .cloned()
            .unwrap_or_else(|| upper_camel(name))
    }

    /// Every table name, for hints.
    pub fn known_tables(&self) -> String {
        self.kinds
            .keys()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Every field table name, for hints.
    pub fn object_names(&self) -> String {
        self.objects
            .iter()
            .map(|o| format!("`{}`", o.name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The names of the spec's tables of `kind` (all of them for `None`), for "did you mean".
    pub fn names_of(&self, kind: Option<Kind>) -> Vec<&str> {
        match kind {
            Some(Kind::Object) => self
                .objects
                .iter()
                .filter(|o| !o.synthesized)
                .map(|o| o.name.as_str())
                .collect(),
            _ => self
                .kinds
                .iter()
                .filter(|(_, k)| kind.is_none_or(|want| **k == want))
                .map(|(name, _)| name.as_str())
                .collect(),
        }
    }

    /// The keys of object `obj`, for hints.
    pub fn member_list(&self, obj: usize) -> String {
        self.objects[obj]
            .fields
            .iter()
            .map(|f| format!("`{}`", f.key))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Adds a field table, indexing it by name and its fields by key; returns its index.
    pub fn push_object(&mut self, o: Object) -> usize {
        let i = self.objects.len();
        self.object_by_name.entry(o.name.clone()).or_insert(i);
        let mut keys = HashMap::with_capacity(o.fields.len());
        for (fi, f) in o.fields.iter().enumerate() {
            keys.entry(f.key.clone()).or_insert(fi);
        }
        self.field_by_key.push(keys);
        self.objects.push(o);
        i
    }

    /// The first field table named `name`.
    pub fn object_index(&self, name: &str) -> Option<usize> {
        self.object_by_name.get(name).copied()
    }

    /// The first field of object `obj` with JSON key `key`.
    pub fn field_index(&self, obj: usize, key: &str) -> Option<usize> {
        self.field_by_key.get(obj)?.get(key).copied()
    }

    /// The field table of the elements of field `fi` of object `obj`.
    pub fn elem_object(&self, obj: usize, fi: usize) -> Option<usize> {
        match &self.objects[obj].fields[fi].ty.base {
            Base::Object(n) => self.object_index(n),
            _ => None,
        }
    }

    /// The enum table named `name`.
    pub fn enum_named(&self, name: &str) -> Option<&Enum> {
        self.enums.iter().find(|e| e.name == name)
    }

    /// Whether row `key` of table `table` was reported as broken.
    pub fn is_poisoned(&self, table: &str, key: &str) -> bool {
        self.poisoned.contains(&(table.to_owned(), key.to_owned()))
    }

    /// Where the Type cell of a field is (the file start for a member without a row).
    pub fn type_pos_of(&self, table: &str, key: &str) -> Pos {
        self.type_pos
            .get(&(table.to_owned(), key.to_owned()))
            .copied()
            .unwrap_or(Pos::TOP)
    }

    /// Resolves a cap path whose last step may be a member of a union field
    /// (`signature.chain`): a path to a field as [`Self::resolve`] does, or the member.
    pub fn resolve_cap(
        &self,
        root: usize,
        path: &str,
    ) -> Result<Result<Target, MemberTarget>, Unresolved> {
        let Some((head, last)) = path.rsplit_once('.') else {
            return self.resolve(root, path).map(Ok);
        };
        let t = match self.resolve(root, head) {
            Ok(t) => t,
            // The head is no field: what is wrong is said of the whole path.
            Err(_) => return self.resolve(root, path).map(Ok),
        };
        let f = &self.objects[t.obj].fields[t.field];
        let Base::Union(name) = &f.ty.base else {
            return self.resolve(root, path).map(Ok);
        };
        if f.ty.array {
            return Err(Unresolved::Why(format!(
                "`{head}` is a list of the union `{name}`: a cap steps into the members of a single union value only"
            )));
        }
        let union = self
            .unions
            .iter()
            .position(|u| u.name == *name)
            .ok_or(Unresolved::Silent)?;
        let u = &self.unions[union];
        let (key, elems) = match last.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (last, false),
        };
        let Some(m) = u
            .variants
            .iter()
            .flat_map(|v| &v.members)
            .find(|m| m.key == key)
        else {
            let mut keys: Vec<String> = Vec::new();
            for m in u.variants.iter().flat_map(|v| &v.members) {
                let k = format!("`{}`", m.key);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            return Err(Unresolved::Why(format!(
                "no variant of the union `{name}` has a member `{key}` (members: {})",
                keys.join(", ")
            )));
        };
        if elems && !m.ty.array {
            return Err(Unresolved::Why(format!(
                "`{key}` is not an array, so `{key}[]` steps into nothing"
            )));
        }
        Ok(Err(MemberTarget {
            union,
            key: key.to_owned(),
            elems,
        }))
    }

    /// Resolves a spec path from the root object.
    pub fn resolve(&self, root: usize, path: &str) -> Result<Target, Unresolved> {
        if path.trim().is_empty() {
            return Err(Unresolved::Why("the path is empty".to_owned()));
        }
        let segs: Vec<&str> = path.split('.').collect();
        let mut obj = root;
        for (i, seg) in segs.iter().enumerate() {
            let (name, elems) = match seg.strip_suffix("[]") {
                Some(n) => (n, true),
                None => (*seg, false),
            };
            let o = &self.objects[obj];
            let Some(fi) = self.field_index(obj, name) else {
                if self.is_poisoned(&o.name, name) {
                    return Err(Unresolved::Silent);
                }
                let keys: Vec<String> = o.fields.iter().map(|f| format!("`{}`", f.key)).collect();
                return Err(Unresolved::Why(format!(
                    "`{}` has no field `{name}` (fields: {})",
                    o.name,
                    keys.join(", ")
                )));
            };
            let f = &o.fields[fi];
            if elems && !f.ty.array {
                return Err(Unresolved::Why(format!(
                    "`{name}` is not an array, so `{name}[]` steps into nothing"
                )));
            }
            if i + 1 == segs.len() {
                return Ok(Target {
                    obj,
                    field: fi,
                    elems,
                });
            }
            if f.ty.array && !elems {
                return Err(Unresolved::Why(format!(
                    "`{name}` is an array: write `{name}[]` to step into its elements"
                )));
            }
            match &f.ty.base {
                Base::Object(n) => {
                    obj = self.object_index(n).expect("checked type");
                }
                // It has members; what stops the path is that only a cap reaches them.
                Base::Union(n) => {
                    return Err(Unresolved::Why(format!(
                        "`{name}` is the union `{n}`: only a cap or minimum row steps into a union's members (to a member itself, `{name}.member`)"
                    )));
                }
                other => {
                    return Err(Unresolved::Why(format!(
                        "`{name}` is {}, which has no members",
                        base_words(other)
                    )));
                }
            }
        }
        unreachable!("the loop returns at the last segment")
    }

    /// The type definitions, in spec order (synthesized objects last).
    pub fn types(&self) -> Vec<TypeDef> {
        self.order
            .iter()
            .filter(|(_, i)| *i != usize::MAX)
            .map(|(k, i)| match k {
                Kind::Object => TypeDef::Object(self.objects[*i].clone()),
                Kind::Enum => TypeDef::Enum(self.enums[*i].clone()),
                Kind::Union => TypeDef::Union(self.unions[*i].clone()),
                Kind::States => unreachable!("states tables are machines, not in the type order"),
            })
            .collect()
    }
}

fn base_words(b: &Base) -> String {
    match b {
        Base::String => "a string".into(),
        Base::Bool => "a bool".into(),
        Base::U32 | Base::U64 | Base::I32 | Base::I64 | Base::Number => "a number".into(),
        Base::Decimal { .. } => "a decimal".into(),
        Base::Enum(n) => format!("the enum `{n}`"),
        Base::Union(n) => format!("the union `{n}`"),
        Base::Object(n) => format!("the object `{n}`"),
        Base::Selected(n) => format!("an object chosen by `{n}`"),
        Base::Any => "any JSON value".into(),
    }
}
