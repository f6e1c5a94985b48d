//! The document: the `DOCUMENT` constant and the root type's entry points.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

impl Ctx<'_> {
    pub(super) fn document(&self) -> TokenStream {
        let rt = &self.rt;
        let spec = self.spec;
        let root = ident(&spec.root_object().rust_name);
        let dn = &spec.document_name;
        let parse = &spec.errors.parse;
        let fk = &spec.errors.forbidden_key;
        let d = doc(&format!(
            "How {dn} documents are read: their name, parse error code and forbidden keys."
        ));
        let extract = match spec.extract {
            Extract::Whole => quote!(#rt::document::Extract::Whole),
            Extract::OutermostObject => quote!(#rt::document::Extract::OutermostObject),
        };
        let growth = crate::model::growth::canonical_growth(spec).map(|g| {
            let g = usize::try_from(g).unwrap_or(usize::MAX);
            quote!(.with_canonical_growth(#g))
        });
        // An input too large to read is over the document's byte cap too: its code, if any.
        let too_large = spec.root_object().max_json_bytes.as_ref().map(|cap| {
            let code = &cap.code;
            quote!(.with_too_large_code(#code))
        });
        let max_input = spec.max_input_bytes.map(|m| {
            let m = usize::try_from(m).unwrap_or(usize::MAX);
            quote!(.with_max_input_bytes(#m))
        });
        let bom = spec.bom_tolerated.then(|| quote!(.with_bom_tolerated()));
        let free = spec
            .has_free_members()
            .then(|| quote!(.with_free_members()));
        let slice_doc = doc(&format!(
            "Parses and validates one {dn} from JSON bytes: strict JSON, forbidden keys, shape, then every rule; `Err` carries every violation."
        ));
        let str_doc = doc(&format!("Like [`{root}::from_json_slice`], from a string."));
        let canon_doc = doc(&format!(
            "The canonical compact JSON of this {dn}: members at their default left out unless the spec writes them always (`[canonical] always_written`), unions tagged."
        ));
        quote! {
            #d
            pub const DOCUMENT: #rt::document::DocumentSpec =
                #rt::document::DocumentSpec::new(#dn, #parse)
                    .with_forbidden_keys(FORBIDDEN_KEYS, #fk)
                    .with_shape(&SHAPES)
                    #too_large
                    .with_extract(#extract)
                    #max_input
                    #bom
                    #free
                    #growth;

            impl #root {
                #slice_doc
                pub fn from_json_slice(input: &[u8]) -> ::core::result::Result<Self, #rt::Report> {
                    #rt::document::parse_document(input, &DOCUMENT)
                }

                #str_doc
                pub fn from_json_str(input: &str) -> ::core::result::Result<Self, #rt::Report> {
                    #rt::document::parse_document_str(input, &DOCUMENT)
                }

                #canon_doc
                pub fn to_canonical_json(&self) -> ::std::string::String {
                    #rt::document::to_canonical_json(self)
                }
            }
        }
    }
}
