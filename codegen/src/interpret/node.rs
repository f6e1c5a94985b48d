//! The value a document is read into, and the views of it the runtime's rules take.

use std::fmt;
use std::sync::LazyLock;

use specmint_runtime::decimal::Decimal;
use specmint_runtime::json::Json;

use super::compile::{Compiled, Name, Type};
use specmint_runtime::expr::{Items, Subject, Value};
use specmint_runtime::rules::{
    ByteCount, DecimalField, Filled, IntegerField, KeyMember, KeyValue, NumberField, OrderField,
    Ordered, TextField,
};

/// One value of a document, as the generated types would hold it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Node {
    /// `None` of an `Option`: an absent optional member, or `null` where that means absent.
    Absent,
    Bool(bool),
    /// `uint32` and `uint64`.
    UInt(u64),
    /// `int32` and `int64`.
    Int(i64),
    Float(f64),
    /// `decimal(S)`: read from the number's text.
    Decimal(Decimal),
    Text(String),
    Enum(EnumValue),
    List(Vec<Node>),
    /// An object of type `.0`: one value per field in table order, then the members an open
    /// object's table does not list.
    Object(usize, Vec<Node>, Vec<(String, Json)>),
    /// A union of type `.0`: the variant and its members' values.
    Union(usize, usize, Vec<Node>),
    /// `any`.
    Any(Json),
}

/// A value of an enum table: compared by position, shown as spelled (the generated enum's
/// `PartialEq` and `Display`).
#[derive(Clone, Debug)]
pub(super) struct EnumValue {
    pub index: usize,
    pub spelled: Name,
}

impl PartialEq for EnumValue {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl fmt::Display for EnumValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelled)
    }
}

/// What a rule reading an enum member of an item gets when the item holds none (a model
/// the checker passed never gets here).
pub(super) static NO_ENUM: LazyLock<EnumValue> = LazyLock::new(|| EnumValue {
    index: usize::MAX,
    spelled: Name::from(""),
});

impl Node {
    /// The members of an object (none for any other value).
    pub fn fields(&self) -> &[Node] {
        match self {
            Node::Object(_, fields, _) => fields,
            _ => &[],
        }
    }

    /// The items of a list, `None` for an absent one.
    pub fn items(&self) -> Option<&[Node]> {
        match self {
            Node::List(items) => Some(items),
            _ => None,
        }
    }

    /// Member `i` of an object item, as an enum value.
    pub fn enum_at(&self, i: usize) -> &EnumValue {
        match self.fields().get(i) {
            Some(Node::Enum(e)) => e,
            _ => &NO_ENUM,
        }
    }

    /// Member `i` of an object item, as text (`""` when it holds none).
    pub fn text_at(&self, i: usize) -> &str {
        self.fields().get(i).and_then(Node::text).unwrap_or("")
    }
}

/// Text, and an enum value as spelled (the generated enum's `TextField`, which it has when
/// a list of its values must hold unique items).
impl TextField for Node {
    fn text(&self) -> Option<&str> {
        match self {
            Node::Text(s) => Some(s),
            Node::Enum(e) => Some(&e.spelled),
            _ => None,
        }
    }
}

/// A member of a compound unique key, as the generated types' `KeyMember` reads it.
impl KeyMember for Node {
    fn key_value(&self) -> Option<KeyValue<'_>> {
        Some(match self {
            Node::Text(s) => KeyValue::Text(s),
            Node::Enum(e) => KeyValue::Symbol(&e.spelled),
            Node::UInt(n) => KeyValue::Integer((*n).into()),
            Node::Int(n) => KeyValue::Integer((*n).into()),
            Node::Float(x) => KeyValue::Number(*x),
            Node::Bool(b) => KeyValue::Bool(*b),
            _ => return None,
        })
    }
}

impl IntegerField for Node {
    fn integer(&self) -> Option<i128> {
        match self {
            Node::UInt(n) => Some((*n).into()),
            Node::Int(n) => Some((*n).into()),
            _ => None,
        }
    }
}

impl NumberField for Node {
    fn number(&self) -> Option<f64> {
        match self {
            Node::Float(n) => Some(*n),
            _ => None,
        }
    }
}

impl DecimalField for Node {
    fn decimal(&self) -> Option<Decimal> {
        match self {
            Node::Decimal(d) => Some(*d),
            _ => None,
        }
    }
}

impl Filled for Node {
    fn unfilled(&self) -> Option<&'static str> {
        match self {
            Node::Absent => None::<String>.unfilled(),
            Node::Text(s) => s.unfilled(),
            Node::List(items) => items.unfilled(),
            _ => None,
        }
    }
}

impl ByteCount for Node {
    fn byte_count(&self) -> Option<i128> {
        match self {
            Node::UInt(n) => n.byte_count(),
            Node::Int(n) => n.byte_count(),
            _ => None,
        }
    }
}

impl OrderField for Node {
    fn ordered(&self) -> Option<Ordered<'_>> {
        match self {
            Node::UInt(n) => n.ordered(),
            Node::Int(n) => n.ordered(),
            Node::Float(n) => n.ordered(),
            Node::Text(s) => Ordered::from_text(s),
            _ => None,
        }
    }
}

/// A member compared with another or shown in a message (`not_equal`, a digest's
/// encoding): the generated field's `PartialEq` and `Display`.
pub(super) struct Scalar<'a>(pub &'a Node);

impl PartialEq for Scalar<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl fmt::Display for Scalar<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Node::Bool(b) => b.fmt(f),
            Node::UInt(n) => n.fmt(f),
            Node::Int(n) => n.fmt(f),
            Node::Float(n) => n.fmt(f),
            Node::Decimal(d) => d.fmt(f),
            Node::Text(s) => f.write_str(s),
            Node::Enum(e) => e.fmt(f),
            Node::Any(json) => f.write_str(&json.to_js_compact()),
            Node::Absent | Node::List(_) | Node::Object(..) | Node::Union(..) => Ok(()),
        }
    }
}

/// An object of the document as a rule of a rules table reads it
/// (`specmint_runtime::expr::Subject`): its members by JSON key, as the generated structs
/// give theirs.
pub(super) struct View<'a> {
    pub c: &'a Compiled,
    pub node: &'a Node,
}

impl Subject for View<'_> {
    fn member(&self, name: &str) -> Value<'_> {
        let Node::Object(t, values, _) = self.node else {
            return Value::Absent;
        };
        let Type::Object(o) = &self.c.types[*t] else {
            return Value::Absent;
        };
        match o.keys.iter().position(|k| &**k == name) {
            Some(i) => value_of(self.c, &values[i]),
            None => Value::Absent,
        }
    }
}

/// The items of a list node, as a rule reads them.
struct ListView<'a> {
    c: &'a Compiled,
    items: &'a [Node],
}

impl Items for ListView<'_> {
    fn count(&self) -> usize {
        self.items.len()
    }

    fn item(&self, i: usize) -> Value<'_> {
        value_of(self.c, &self.items[i])
    }
}

fn value_of<'a>(c: &'a Compiled, node: &'a Node) -> Value<'a> {
    match node {
        Node::Absent | Node::Union(..) | Node::Any(_) => Value::Absent,
        Node::Bool(b) => Value::Bool(*b),
        Node::UInt(n) => Value::Int((*n).into()),
        Node::Int(n) => Value::Int((*n).into()),
        Node::Float(x) => Value::Float(*x),
        Node::Decimal(d) => Value::Decimal(*d),
        Node::Text(s) => Value::Text(s),
        Node::Enum(e) => Value::Text(&e.spelled),
        Node::List(items) => Value::List(Box::new(ListView { c, items })),
        Node::Object(..) => Value::Object(Box::new(View { c, node })),
    }
}
