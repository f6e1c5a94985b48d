//! Objects: a field table as a struct with its serde and `#[validate(..)]` attributes, its
//! defaults and its `Default`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::*;

impl Ctx<'_> {
    /// `#[validate(..)]` rule list for one field, in the order violations are reported:
    /// the list's own counts, then each element (text rules, nested values), then the rules
    /// that compare elements with each other.
    pub(super) fn field_rules(&self, o: &Object, f: &Field) -> Vec<TokenStream> {
        let r = &f.rules;
        let mut rules = Vec::new();
        if let Some(code) = &r.required {
            rules.push(quote!(required(code = #code)));
        }
        if let Some(ri) = r
            .required_if
            .as_ref()
            .filter(|_| !o.condition_in_struct_check(f))
        {
            if let Some((sibling, value, when)) = ri.condition.sibling_value() {
                let field = ident(&sibling.rust);
                let equals = condition_value(&ri.condition, value, when);
                let code = &ri.code;
                rules.push(quote!(required_if(field = #field, equals = #equals, code = #code)));
            }
        }
        if let Some(cap) = &r.max_items {
            let c = ident(&cap.constant);
            let code = &cap.code;
            rules.push(quote!(max_items(max = #c, code = #code)));
        }
        if let Some(cap) = &r.min_items {
            let c = ident(&cap.constant);
            let code = &cap.code;
            rules.push(quote!(min_items(min = #c, code = #code)));
        }
        for g in &r.max_items_per_group {
            let by = ident(&g.by.rust);
            let c = ident(&g.cap.constant);
            let code = &g.cap.code;
            rules.push(quote!(max_items_per_group(by = #by, max = #c, code = #code)));
        }
        let mut each = Vec::new();
        if let Some(code) = &r.non_blank {
            each.push(quote!(non_blank(code = #code)));
        }
        if let Some(cap) = &r.max_chars {
            let c = ident(&cap.constant);
            let code = &cap.code;
            each.push(quote!(max_chars(max = #c, code = #code)));
        }
        if let Some(cap) = &r.min_chars {
            let c = ident(&cap.constant);
            let code = &cap.code;
            each.push(quote!(min_chars(min = #c, code = #code)));
        }
        if let (Some(code), Some(lit)) = (&r.equals, &f.ty.literal) {
            each.push(quote!(equals(value = #lit, code = #code)));
        }
        if let (Some(code), Some(re)) = (&r.pattern, &f.ty.pattern) {
            each.push(quote!(pattern(regex = #re, code = #code)));
        }
        if let Some(code) = &r.relative_path {
            each.push(quote!(relative_path(code = #code)));
        }
        if let (Some(code), Some(f)) = (&r.format, &f.ty.format) {
            let kind = f.name();
            each.push(quote!(format(kind = #kind, code = #code)));
        }
        if let (Some(code), Some(r)) = (&r.range, &f.ty.range) {
            let mut args = Vec::new();
            for (name, bound) in [("min", r.min), ("max", r.max)] {
                if let Some(n) = bound {
                    let name = ident(name);
                    let abs = proc_macro2::Literal::u128_unsuffixed(n.unsigned_abs());
                    args.push(if n < 0 {
                        quote!(#name = -#abs)
                    } else {
                        quote!(#name = #abs)
                    });
                }
            }
            each.push(quote!(range(#(#args,)* code = #code)));
        }
        if let (Some(code), Some(r)) = (&r.range, &f.ty.number_range) {
            // Decimal literals (`-90.0`, `359.5`): the derive reads a decimal range.
            let args = [("min", r.min), ("max", r.max)]
                .into_iter()
                .filter_map(|(name, bound)| {
                    let name = ident(name);
                    let lit = proc_macro2::Literal::f64_unsuffixed(bound?.abs());
                    Some(if bound? < 0.0 {
                        quote!(#name = -#lit)
                    } else {
                        quote!(#name = #lit)
                    })
                });
            each.push(quote!(range(#(#args,)* code = #code)));
        }
        if let (Some(code), Base::Decimal { scale, precision }) = (&r.scale, &f.ty.base) {
            let scale = proc_macro2::Literal::u32_unsuffixed(*scale);
            let precision = precision.map(|p| {
                let p = proc_macro2::Literal::u32_unsuffixed(p);
                quote!(, precision = #p)
            });
            each.push(quote!(scale(max = #scale #precision, code = #code)));
        }
        if let (Some(code), Some(d)) = (&r.range, &f.ty.decimal_range) {
            let args = [("min", "above", &d.min), ("max", "below", &d.max)]
                .into_iter()
                .filter_map(|(inclusive, excluded, bound)| {
                    let b = bound.as_ref()?;
                    let name = ident(if b.excluded { excluded } else { inclusive });
                    let text = b.value.to_string();
                    Some(quote!(#name = #text))
                });
            each.push(quote!(decimal_range(#(#args,)* code = #code)));
        }
        if !each.is_empty() {
            if f.ty.array {
                rules.push(quote!(each(#(#each),*)));
            } else {
                rules.extend(each);
            }
        }
        if matches!(f.ty.base, Base::Object(_) | Base::Union(_)) {
            rules.push(quote!(nested));
        }
        // `ignore_case`, `trim` and `code = ".."`, after any leading arguments.
        let fold_args = |mut args: Vec<TokenStream>, ignore_case: bool, trim: bool, code: &str| {
            if ignore_case {
                args.push(quote!(ignore_case));
            }
            if trim {
                args.push(quote!(trim));
            }
            args.push(quote!(code = #code));
            args
        };
        if let Some(u) = &r.unique {
            let args = fold_args(Vec::new(), u.ignore_case, u.trim, &u.code);
            rules.push(quote!(unique(#(#args),*)));
        }
        for u in &r.unique_by {
            let key = if u.compound {
                let keys = u.keys.iter().map(|k| ident(&k.rust));
                quote!(key = (#(#keys),*))
            } else {
                let key = ident(&u.key.rust);
                quote!(key = #key)
            };
            let args = fold_args(vec![key], u.ignore_case, u.trim, &u.code);
            rules.push(quote!(unique_by(#(#args),*)));
        }
        for c in &r.contradiction {
            let by = ident(&c.by.rust);
            let value = ident(&c.value.rust);
            let en = ident(&c.enum_rust);
            let pairs = c.pairs.iter().map(|p| {
                let a = ident(&p.a.rust);
                let b = ident(&p.b.rust);
                if p.ignore_case {
                    quote!(pair(#en::#a, #en::#b, ignore_case))
                } else {
                    quote!(pair(#en::#a, #en::#b))
                }
            });
            let code = &c.code;
            rules.push(quote!(contradiction(by = #by, value = #value, #(#pairs,)* code = #code)));
        }
        rules
    }

    /// The default function's name of an optional field with a stated default.
    pub(super) fn default_fns(&self, o: &Object, f: &Field) -> (Ident, Ident) {
        let base = format!("{}_{}", crate::names::snake_case(&o.rust_name), f.rust_name);
        (
            format_ident!("default_{}", base),
            format_ident!("is_default_{}", base),
        )
    }

    /// `value` (an expression of the field's type, by reference) is the value an absent key
    /// means, so it is left out when writing; `None` when the field is always written.
    pub(super) fn skip_expr(
        &self,
        o: &Object,
        f: &Field,
        value: TokenStream,
    ) -> Option<TokenStream> {
        if f.always_written || (f.required && !f.read_optional()) {
            return None;
        }
        if f.default.is_some() || f.absent_is_empty {
            let (_, ifn) = self.default_fns(o, f);
            Some(quote!(#ifn(#value)))
        } else if f.ty.nullable || f.read_optional() {
            Some(quote!(::core::option::Option::is_none(#value)))
        } else if f.ty.array {
            Some(quote!(::std::vec::Vec::is_empty(#value)))
        } else {
            None
        }
    }

    /// The serde arguments saying what an absent key means (`default`) and when the field is
    /// left out when written (`skip_serializing_if`, never for an always-written field); the
    /// functions they name go to `helpers`.
    fn default_args(
        &self,
        o: &Object,
        f: &Field,
        ty: &TokenStream,
        helpers: &mut Vec<TokenStream>,
    ) -> Vec<TokenStream> {
        if !absent_is_read(f) {
            return Vec::new();
        }
        let (dfn, ifn) = self.default_fns(o, f);
        // A key that is not an identifier (`2fa`) has a field name with a leading `_`, which
        // leaves `__` in the helpers' names: allowed there, so a user's `-D warnings` holds.
        let allow = dfn
            .to_string()
            .contains("__")
            .then(|| quote!(#[allow(non_snake_case)]));
        // The `is_default` test of the `skip_serializing_if` function, if one is emitted.
        let mut is_default = None;
        let (default, skip) = if let Some(v) = &f.default {
            let dfn_s = dfn.to_string();
            let expr = self.default_expr(&f.ty, v);
            helpers.push(quote!(#allow fn #dfn() -> #ty { #expr }));
            is_default = Some(match v {
                DefaultValue::Bool(true) => quote!(*value),
                DefaultValue::Bool(false) => quote!(!*value),
                // Compare a string with the literal, not with a freshly allocated String.
                DefaultValue::String(text) => quote!(*value == #text),
                _ => quote!(*value == #expr),
            });
            (quote!(default = #dfn_s), Some(ifn.to_string()))
        } else if f.is_optional_any() {
            // A present `null` is a value (`Some(Json::Null)`), not absence.
            let present = format!("{}::json::present", self.rt_str);
            (
                quote!(default, deserialize_with = #present),
                Some("::core::option::Option::is_none".to_owned()),
            )
        } else if (!f.required && f.ty.nullable) || f.read_optional() {
            let skip = "::core::option::Option::is_none".to_owned();
            (quote!(default), Some(skip))
        } else if !f.required && f.ty.array {
            (
                quote!(default),
                Some("::std::vec::Vec::is_empty".to_owned()),
            )
        } else if f.absent_is_empty && !f.required {
            // Absent means `{}`: left out while it holds that value.
            is_default = Some(quote!(*value == <#ty as ::core::default::Default>::default()));
            (quote!(default), Some(ifn.to_string()))
        } else {
            // `absent_is_empty`, the one case left: read as `{}`, always written.
            (quote!(default), None)
        };
        let mut args = vec![default];
        if let Some(skip) = skip.filter(|_| !f.always_written) {
            if let Some(test) = is_default {
                helpers.push(quote!(#allow fn #ifn(value: &#ty) -> bool { #test }));
            }
            args.push(quote!(skip_serializing_if = #skip));
        }
        args
    }

    /// One field of a struct: its doc, serde, rename and `#[validate(..)]` attributes; the
    /// default functions it needs go to `helpers`.
    fn field_def(&self, o: &Object, f: &Field, helpers: &mut Vec<TokenStream>) -> TokenStream {
        let custom_serde = o.selector.is_some();
        let fd = doc(&f.doc);
        let fi = ident(&f.rust_name);
        let ty = self.field_type(&o.name, f);
        let mut serde_args = Vec::new();
        let mut rename_attr = quote!();
        if f.rust_name != f.key {
            let k = &f.key;
            if custom_serde {
                rename_attr = quote!(#[validate(rename = #k)]);
            } else {
                serde_args.push(quote!(rename = #k));
            }
        }
        serde_args.extend(self.default_args(o, f, &ty, helpers));
        let serde_attr = if serde_args.is_empty() || custom_serde {
            quote!()
        } else {
            quote!(#[serde(#(#serde_args),*)])
        };
        let rules = self.field_rules(o, f);
        let validate_attr = if rules.is_empty() {
            quote!()
        } else {
            quote!(#[validate(#(#rules),*)])
        };
        let attrs = self.field_attrs(&o.name, &f.key);
        quote!(#fd #serde_attr #rename_attr #validate_attr #attrs pub #fi: #ty,)
    }

    /// `#[validate(..)]` rules on the whole struct: not-equal pairs, order, not-contains, digests,
    /// the document byte cap.
    fn struct_attr(&self, o: &Object) -> TokenStream {
        let mut struct_rules = Vec::new();
        for n in &o.not_equal {
            let a = ident(&n.a.rust);
            let b = ident(&n.b.rust);
            let code = &n.code;
            struct_rules.push(quote!(not_equal(a = #a, b = #b, code = #code)));
        }
        for n in &o.order {
            let a = ident(&n.a.rust);
            let b = ident(&n.b.rust);
            let code = &n.code;
            let strict = if n.strict { quote!(strict,) } else { quote!() };
            struct_rules.push(quote!(order(a = #a, b = #b, #strict code = #code)));
        }
        for n in &o.not_contains {
            let list = ident(&n.list.rust);
            let value = ident(&n.value.rust);
            let code = &n.code;
            struct_rules.push(quote!(not_contains(list = #list, value = #value, code = #code)));
        }
        for g in &o.digest {
            let sha = ident(&g.sha256.rust);
            let data = ident(&g.data.rust);
            let enc = ident(&g.encoding.rust);
            let mut args = vec![
                quote!(sha256 = #sha),
                quote!(data = #data),
                quote!(encoding = #enc),
            ];
            if let Some(Member { rust: l, .. }) = &g.label {
                let l = ident(l);
                args.push(quote!(label = #l));
            }
            if let Some(Member { rust: l, .. }) = &g.length {
                let l = ident(l);
                args.push(quote!(length = #l));
            }
            let code = &g.code;
            args.push(quote!(code = #code));
            struct_rules.push(quote!(digest(#(#args),*)));
        }
        if let Some(cap) = &o.max_json_bytes {
            let c = ident(&cap.constant);
            let code = &cap.code;
            struct_rules.push(quote!(max_json_bytes(max = #c, code = #code)));
        }
        if has_own_check(o) {
            let (check, _) = self.optional_conditions(o, &[]);
            struct_rules.push(quote!(custom = #check));
        }
        if struct_rules.is_empty() {
            quote!()
        } else {
            quote!(#[validate(#(#struct_rules),*)])
        }
    }

    /// `Default` of an object that reads as `{}` when absent.
    fn default_impl(&self, o: &Object, name: &Ident) -> TokenStream {
        if !o.defaultable {
            return quote!();
        }
        let inits = o.fields.iter().map(|f| {
            let fi = ident(&f.rust_name);
            let v = if f.default.is_some() {
                let (dfn, _) = self.default_fns(o, f);
                quote!(#dfn())
            } else {
                quote!(::core::default::Default::default())
            };
            quote!(#fi: #v,)
        });
        let open = o.open.then(|| {
            let fi = ident(OPEN_MEMBERS_FIELD);
            quote!(#fi: ::core::default::Default::default(),)
        });
        let dd = doc("The value an absent key means: `{}`.");
        quote! {
            impl ::core::default::Default for #name {
                #dd
                fn default() -> Self {
                    #name { #(#inits)* #open }
                }
            }
        }
    }

    pub(super) fn object(&self, o: &Object) -> TokenStream {
        let name = ident(&o.rust_name);
        let d = if o.name == self.spec.root {
            doc(&format!("{}\n\n{}", self.spec.title, o.doc))
        } else {
            doc(&o.doc)
        };
        // A user's attributes go after the derives: `#[validate(custom = ..)]` is a helper
        // attribute of the derive, which must come first.
        let conditions = has_own_check(o);
        let (attrs, customs) = if conditions {
            self.type_attrs_without_custom(&o.name)
        } else {
            (self.type_attrs(&o.name), Vec::new())
        };
        let rt_str = &self.rt_str;
        let derive = &self.derive;
        let mut helpers = Vec::new();
        let mut fields = Vec::new();
        let mut body_done = false;
        for f in &o.fields {
            if let Some(sel) = &o.selector {
                if f.key == sel.by.key || sel.members.contains(&f.key) {
                    if !body_done {
                        body_done = true;
                        let body = ident(&sel.body_rust);
                        let mut names = vec![format!("`{}`", sel.by.key)];
                        names.extend(sel.members.iter().map(|m| format!("`{m}`")));
                        let bd = doc(&format!(
                            "{} and the members it chooses, in one value: the members' shapes cannot disagree with it.",
                            names.join(", ")
                        ));
                        fields.push(quote!(#bd #[validate(nested(flatten))] pub body: #body,));
                    }
                    continue;
                }
            }
            fields.push(self.field_def(o, f, &mut helpers));
        }
        let struct_attr = self.struct_attr(o);
        if conditions {
            helpers.push(self.optional_conditions(o, &customs).1);
        }
        let default_impl = self.default_impl(o, &name);
        let subject = self.subject_impl(o, &name);
        if let Some(sel) = &o.selector {
            let serde_impls = self.selector_serde(o, sel);
            let body = self.body_enum(sel);
            let by = ident(&sel.by.rust);
            let en = ident(&sel.enum_rust);
            let md = doc(&format!("The value of `{}`.", sel.by.key));
            return quote! {
                #d
                #[derive(Debug, Clone, PartialEq, #derive)]
                #[validate(crate = #rt_str)]
                #struct_attr
                #attrs
                pub struct #name { #(#fields)* }

                impl #name {
                    #md
                    pub const fn #by(&self) -> #en {
                        self.body.#by()
                    }
                }

                #serde_impls
                #body
                #default_impl
                #subject
                #(#helpers)*
            };
        }
        // An open object carries what its table does not list, in order, and so cannot deny
        // unknown members; every other object does.
        let closed = if o.open {
            let fi = ident(OPEN_MEMBERS_FIELD);
            let rt = &self.rt;
            let fd = doc("The members the table does not list, verbatim and in document order.");
            fields.push(quote! {
                #fd
                #[serde(flatten)]
                pub #fi: #rt::json::OpenMembers,
            });
            quote!()
        } else {
            quote!(#[serde(deny_unknown_fields)])
        };
        let (serde, serde_crate) = (&self.serde, &self.serde_crate);
        quote! {
            #d
            #[derive(Debug, Clone, PartialEq, #serde::Serialize, #serde::Deserialize, #derive)]
            #serde_crate
            #closed
            #[validate(crate = #rt_str)]
            #struct_attr
            #attrs
            pub struct #name { #(#fields)* }
            #default_impl
            #subject
            #(#helpers)*
        }
    }

    /// Whether a rules table's row is a rule of the spec: then its structs give their members
    /// to the runtime's expressions ([`Ctx::subject_impl`]) and its enums their spellings.
    pub(super) fn has_expressions(&self) -> bool {
        self.spec.has_rules_tables()
    }

    /// `impl expr::Subject` (each member by its JSON key; a union, chosen member or `any`
    /// reads as absent, as no rule reads one) and `impl expr::AsValue` for the struct of `o`,
    /// when the spec has rules tables; nothing otherwise.
    fn subject_impl(&self, o: &Object, name: &Ident) -> TokenStream {
        if !self.has_expressions() {
            return quote!();
        }
        let rt = &self.rt;
        let mut arms = Vec::new();
        for f in &o.fields {
            let key = &f.key;
            if let Some(sel) = &o.selector {
                if f.key == sel.by.key {
                    let by = ident(&sel.by.rust);
                    arms.push(quote!(#key => #rt::expr::Value::Text(self.#by().as_str()),));
                    continue;
                }
                if sel.members.contains(&f.key) {
                    continue;
                }
            }
            if matches!(f.ty.base, Base::Union(_) | Base::Selected(_) | Base::Any) {
                continue;
            }
            let fi = ident(&f.rust_name);
            arms.push(quote!(#key => #rt::expr::AsValue::as_value(&self.#fi),));
        }
        quote! {
            impl #rt::expr::Subject for #name {
                fn member(&self, name: &str) -> #rt::expr::Value<'_> {
                    match name {
                        #(#arms)*
                        _ => #rt::expr::Value::Absent,
                    }
                }
            }

            impl #rt::expr::AsValue for #name {
                fn as_value(&self) -> #rt::expr::Value<'_> {
                    #rt::expr::Value::Object(::std::boxed::Box::new(self))
                }
            }
        }
    }
}

/// A value of a condition as Rust writes it: a `bool`, text, or the enum value.
fn condition_value(c: &Condition, value: &Member, when: &serde_json::Value) -> TokenStream {
    match when {
        serde_json::Value::Bool(b) => quote!(#b),
        _ if c.enum_rust.is_empty() => {
            let text = &value.key;
            quote!(#text)
        }
        _ => {
            let (en, v) = (ident(&c.enum_rust), ident(&value.rust));
            quote!(#en::#v)
        }
    }
}

impl Ctx<'_> {
    /// The struct-level check of `o`'s conditional requirements that the derive's
    /// `required_if` cannot state ([`Object::condition_in_struct_check`]), in field order:
    /// its name and its definition. The derive runs it after the field rules; it then runs
    /// `customs`, the struct-level checks of a user's `#[validate(custom = ..)]` (the derive
    /// takes one per struct).
    fn optional_conditions(&self, o: &Object, customs: &[syn::Path]) -> (Ident, TokenStream) {
        let rt = &self.rt;
        let name = ident(&o.rust_name);
        let check = format_ident!(
            "check_required_if_{}",
            crate::names::snake_case(&o.rust_name)
        );
        let checks = o
            .fields
            .iter()
            .filter(|f| o.condition_in_struct_check(f))
            .map(|f| {
                let ri = f.rules.required_if.as_ref().expect("a conditional field");
                let fi = ident(&f.rust_name);
                let key = &f.key;
                let code = &ri.code;
                self.condition_check(&ri.condition, true, |when| {
                    quote! {
                        #rt::rules::required_when(&value.#fi, #when, &path.field(#key), #code, report);
                    }
                })
            });
        let guarded: Vec<TokenStream> = o.guarded.iter().map(|g| self.guarded(o, g)).collect();
        let checks = checks.chain(guarded);
        let allow = check
            .to_string()
            .contains("__")
            .then(|| quote!(#[allow(non_snake_case)]));
        let d = doc(&format!(
            "The conditional requirements of `{}` the derive's `required_if` cannot state (an absent value meets no condition).",
            o.name
        ));
        let def = quote! {
            #d
            #allow
            fn #check(value: &#name, path: &#rt::Path<'_>, report: &mut #rt::Report) {
                #(#checks)*
                #(#customs(value, path, report);)*
            }
        };
        (check, def)
    }

    /// Code that runs `then(when)` while condition `c`, read from `value` (a `&` of the
    /// struct of the object the rule sits on), holds; `when` is a `&dyn Display` saying what
    /// holds. The values reached through the path's lists are the items of the last list on
    /// it, each read on through the members after it (an absent one is no value); before
    /// that list, an absent member or list reaches no item. The interpreter reads them the
    /// same way (`interpret::check::reached`). With `show` false, `when` says the condition
    /// as written even for the plain form (a sidecar rule's message).
    fn condition_check(
        &self,
        c: &Condition,
        show: bool,
        then: impl FnOnce(TokenStream) -> TokenStream,
    ) -> TokenStream {
        let Some(last_list) = c.steps.iter().rposition(|s| s.items) else {
            let leaf = self.option_chain(quote!(value), &c.steps);
            let matches = condition_match(c, &quote!(leaf));
            if c.negated || !show {
                let text = c.describe();
                let body = then(quote!(&#text));
                let holds = if c.negated {
                    quote!(!#matches)
                } else {
                    matches
                };
                return quote! {{
                    let leaf = #leaf;
                    if #holds {
                        #body
                    }
                }};
            }
            let path = &c.path;
            let body = then(quote!(&::core::format_args!("`{}` is `{}`", #path, shown)));
            return quote! {{
                let leaf = #leaf;
                if let ::core::option::Option::Some(shown) = leaf.filter(|_| #matches) {
                    #body
                }
            }};
        };
        let (looped, chained) = c.steps.split_at(last_list + 1);
        let leaf = self.option_chain(quote!(item), chained);
        let matches = condition_match(c, &quote!(leaf));
        // `any`: one value reached matches; `every`: one is reached and each matches.
        let (init, visit, holds) = match c.quantifier {
            Quantifier::Every => (
                quote!(let (mut reached, mut every) = (false, true);),
                quote! {
                    let leaf = #leaf;
                    reached = true;
                    every &= #matches;
                },
                quote!((reached && every)),
            ),
            _ => (
                quote!(let mut any = false;),
                quote! {
                    let leaf = #leaf;
                    any |= #matches;
                },
                quote!(any),
            ),
        };
        let scan = self.loops(quote!(value), looped, visit);
        let holds = match (c.negated, c.quantifier) {
            (false, Quantifier::Every) => quote!(reached && every),
            (false, _) => holds,
            (true, _) => quote!(!#holds),
        };
        let text = c.describe();
        let body = then(quote!(&#text));
        quote! {{
            #init
            #scan
            if #holds {
                #body
            }
        }}
    }

    /// The field of a condition step, and whether Rust holds it in an `Option`; `None` for a
    /// selector's choosing field (read by its method, by value).
    fn step_field(&self, step: &ConditionStep) -> Option<(&Field, bool)> {
        let Some(TypeDef::Object(o)) = self.spec.type_def(&step.table) else {
            return None;
        };
        if o.selector
            .as_ref()
            .is_some_and(|s| s.by.key == step.member.key)
        {
            return None;
        }
        let f = o.fields.iter().find(|f| f.key == step.member.key)?;
        Some((f, f.ty.nullable || f.read_optional() || f.is_optional_any()))
    }

    /// An `Option<&T>` (`Option<T>` for a selector's choosing field) of the value at `steps`
    /// (none of them a list) from `from`, a `&` of a struct.
    fn option_chain(&self, from: TokenStream, steps: &[ConditionStep]) -> TokenStream {
        let mut chain = quote!(::core::option::Option::Some(#from));
        for step in steps {
            let m = ident(&step.member.rust);
            chain = match self.step_field(step) {
                None => quote!(#chain.map(|x| x.#m())),
                Some((_, true)) => quote!(#chain.and_then(|x| x.#m.as_ref())),
                Some((_, false)) => quote!(#chain.map(|x| &x.#m)),
            };
        }
        chain
    }

    /// Nested `if let` and `for` that run `visit` with `item` bound to each item of the last
    /// list of `steps` (the last step is a list), reached from `from`.
    fn loops(&self, from: TokenStream, steps: &[ConditionStep], visit: TokenStream) -> TokenStream {
        let Some((step, rest)) = steps.split_first() else {
            return quote! {
                let item = #from;
                #visit
            };
        };
        let m = ident(&step.member.rust);
        let x = format_ident!("x{}", rest.len());
        let inner = self.loops(quote!(#x), rest, visit);
        match (self.step_field(step), step.items) {
            (Some((_, true)), true) => quote!(for #x in #from.#m.iter().flatten() { #inner }),
            (_, true) => quote!(for #x in #from.#m.iter() { #inner }),
            (Some((_, true)), false) => {
                quote!(if let ::core::option::Option::Some(#x) = #from.#m.as_ref() { #inner })
            }
            (None, false) => quote!({ let #x = &#from.#m(); #inner }),
            (Some((_, false)), false) => quote!({ let #x = &#from.#m; #inner }),
        }
    }
}

/// Whether the struct of `o` has a check of its own ([`Ctx::optional_conditions`]): a
/// conditional requirement the derive cannot state, or a sidecar rule under a condition.
fn has_own_check(o: &Object) -> bool {
    !o.guarded.is_empty() || o.fields.iter().any(|f| o.condition_in_struct_check(f))
}

impl Ctx<'_> {
    /// The check of one [`Guarded`] rule of the struct `value`, at `path`.
    fn guarded(&self, o: &Object, g: &Guarded) -> TokenStream {
        let rt = &self.rt;
        let code = &g.code;
        let nullable = |m: &Member| {
            o.fields
                .iter()
                .any(|f| f.key == m.key && (f.ty.nullable || f.read_optional()))
        };
        let field_of = |m: &Member| {
            let f = ident(&m.rust);
            quote!(value.#f)
        };
        let body = |when: TokenStream| -> TokenStream {
            match &g.rule {
                GuardedRule::Required { path, steps } => {
                    let names: Vec<&str> = path.split('.').collect();
                    let leaf = self.option_chain(quote!(value), steps);
                    quote! {
                        let leaf = #leaf;
                        path.with_fields(&[#(#names),*], |at| match #when {
                            ::core::option::Option::Some(when) => #rt::rules::required_when(&leaf, when, at, #code, report),
                            ::core::option::Option::None => #rt::rules::required(&leaf, at, #code, report),
                        });
                    }
                }
                GuardedRule::AnyOf(ms) | GuardedRule::OneOf(ms) => {
                    let names = ms.iter().map(|m| m.key.as_str());
                    let values = ms.iter().map(field_of);
                    let check = if matches!(g.rule, GuardedRule::AnyOf(_)) {
                        quote!(any_of)
                    } else {
                        quote!(one_of)
                    };
                    quote! {
                        let given = #rt::rules::given_count(&[#(&#values as &dyn #rt::rules::Filled),*]);
                        #rt::rules::#check(&[#(#names),*], given, #when, path, #code, report);
                    }
                }
                GuardedRule::Compare { field, op, bound } => {
                    let key = &field.key;
                    let v = field_of(field);
                    let value = if nullable(field) {
                        quote!(#v.map(#rt::rules::Num::from))
                    } else {
                        quote!(::core::option::Option::Some(#rt::rules::Num::from(#v)))
                    };
                    let op = format_ident!("{}", format!("{op:?}"));
                    let bound = match (bound.as_i64(), bound.as_u64(), bound.as_f64()) {
                        (Some(n), _, _) => {
                            let n = proc_macro2::Literal::i128_unsuffixed(n.into());
                            quote!(#rt::rules::Num::Int(#n))
                        }
                        (_, Some(n), _) => {
                            let n = proc_macro2::Literal::i128_unsuffixed(n.into());
                            quote!(#rt::rules::Num::Int(#n))
                        }
                        (_, _, x) => {
                            let x = proc_macro2::Literal::f64_unsuffixed(x.unwrap_or_default());
                            quote!(#rt::rules::Num::Float(#x))
                        }
                    };
                    quote! {
                        #rt::rules::compare(#value, #rt::rules::Compare::#op, #bound, #when, &path.field(#key), #code, report);
                    }
                }
                GuardedRule::Absent(field) => {
                    let key = &field.key;
                    let v = field_of(field);
                    quote! {
                        #rt::rules::absent(#v.is_some(), #when, &path.field(#key), #code, report);
                    }
                }
                // Read once, by the runtime that computes it (a block of its own: a struct
                // may have several rows).
                GuardedRule::Expression { text, .. } => quote! {
                    {
                        static RULE: ::std::sync::LazyLock<#rt::expr::Parsed> =
                            ::std::sync::LazyLock::new(|| #rt::expr::Expr::parse(#text));
                        #rt::expr::check_parsed(&RULE, value, #when, path, #code, report);
                    }
                },
            }
        };
        match &g.condition {
            None => body(quote!(
                ::core::option::Option::None::<&dyn ::core::fmt::Display>
            )),
            Some(c) => self.condition_check(c, false, |_| {
                let text = c.describe();
                body(quote!(::core::option::Option::Some(&#text as &dyn ::core::fmt::Display)))
            }),
        }
    }
}

/// Whether `leaf` (an `Option<&T>` expression) is one of the condition's values.
fn condition_match(c: &Condition, leaf: &TokenStream) -> TokenStream {
    let pats = c.values.iter().zip(&c.when).map(|(v, when)| match when {
        serde_json::Value::Bool(b) => quote!(#b),
        _ if c.enum_rust.is_empty() => {
            let text = &v.key;
            quote!(#text)
        }
        _ => {
            let (en, var) = (ident(&c.enum_rust), ident(&v.rust));
            quote!(#en::#var)
        }
    });
    if c.enum_rust.is_empty() && c.when.iter().all(|w| w.is_string()) {
        quote!(
            ::core::matches!(#leaf.map(|text| text.as_str()), ::core::option::Option::Some(#(#pats)|*))
        )
    } else {
        quote!(::core::matches!(#leaf, ::core::option::Option::Some(#(#pats)|*)))
    }
}
