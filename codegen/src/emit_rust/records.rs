//! Repetitions of fixed-size records: elements that are numbers (`u4` repeated) or records of numbers (the
//! resource size table's CRC entries), read and written as whole `[u8; N]` arrays (`binspec_runtime::records`).
//!
//! Read field by field, each number costs a bounds check, a store of the reader's position, a branch on the byte
//! order and an error path; written so, a check of the bit buffer, of sizing, of the output's capacity and a store
//! of its length. The generated code instead takes the whole repetition from the input in one check and decodes
//! each element from its array (where the input is cut short, it reads element by element as before, so that the
//! error names the element and field), and writes each element as one array into output grown once.

use super::*;
use crate::ir::EndianSpec;

/// One number of a record: its field (its name, type and byte order) and where it starts in the record.
struct Slot<'m> {
    field: &'m Field,
    at: usize,
}

impl<'m> Gen<'m> {
    /// The numbers of a record element of type `ti`, with their offsets, and the record's size: where every field
    /// of the type is a plain number of 1, 2, 4 or 8 bytes that the model keeps as read (see
    /// [`Gen::plain_element_size`], which also checks that the type records no position and derives nothing), and
    /// the type's byte order is not computed (its own `endian` switch reads the file).
    fn record_slots(&self, ti: usize) -> Option<(Vec<Slot<'m>>, usize)> {
        let t = &self.m.types[ti];
        if matches!(t.endian, EndianSpec::Switch { .. }) {
            return None;
        }
        let mut at = 0;
        let mut slots = Vec::new();
        for f in &t.seq {
            let n = num_size(f)?;
            slots.push(Slot { field: f, at });
            at += n;
        }
        Some((slots, at))
    }

    /// The size of one element where the repetition `f` is read and written as whole records: its elements are
    /// plain numbers or records of them ([`Gen::plain_element_size`]), each of 1, 2, 4 or 8 bytes, not cut out of
    /// the input by a size, terminator or process.
    pub(super) fn record_size(&self, f: &Field) -> Option<usize> {
        if f.repeat == Repeat::None
            || f.is_blob()
            || f.scan.is_some()
            || f.pad_right.is_some()
            || self.boxed.contains(&f.path)
        {
            return None;
        }
        let n = self.plain_element_size(f)?;
        let checked = match &f.ty {
            FieldTy::User { ty, .. } => self.record_slots(*ty).map(|(_, n)| n),
            _ => num_size(&Field {
                repeat: Repeat::None,
                ..f.clone()
            }),
        }?;
        (checked as u64 == n).then_some(checked)
    }

    /// Whether some repetition reads elements of type `ti` as whole records ([`Gen::record_size`]).
    pub(super) fn read_as_records(&self, ti: usize) -> bool {
        self.m.types.iter().any(|t| {
            t.seq.iter().chain(t.instances.iter()).any(|f| {
                matches!(&f.ty, FieldTy::User { ty, .. } if *ty == ti)
                    && self.record_size(f).is_some()
            })
        })
    }

    /// `from_record` and `to_record` for a record type that a repetition reads and writes as whole records.
    pub(super) fn emit_record_fns(&self, ti: usize) -> TokenStream {
        if !self.read_as_records(ti) {
            return quote!();
        }
        let Some((slots, size)) = self.record_slots(ti) else {
            return quote!();
        };
        let t = &self.m.types[ti];
        let name = ty_ident(&t.rust);
        let n = Literal::usize_unsuffixed(size);
        let own = match &t.endian {
            EndianSpec::Fixed(e) => {
                let e = endian_tokens(Some(*e));
                quote!(let endian = #e;)
            }
            _ => quote!(),
        };
        let mut gets = Vec::new();
        let mut puts = Vec::new();
        for s in &slots {
            let id = ident(&s.field.name);
            let at = Literal::usize_unsuffixed(s.at);
            let e = endian_tokens(num_endian(s.field));
            gets.push(quote!(#id: ::binspec_runtime::records::get(b, #at, #e),));
            puts.push(quote!(::binspec_runtime::records::put(&mut b, #at, self.#id, #e);));
        }
        let from = self.called(ti, Fun::FromRecord).then(|| {
            quote! {
                /// The element from its bytes in the file (a repetition of these records read at once).
                #[inline(always)]
                pub(crate) fn from_record(b: &[u8; #n], endian: ::binspec_runtime::Endian) -> Self {
                    #own
                    #name { #(#gets)* }
                }
            }
        });
        let to = self.called(ti, Fun::ToRecord).then(|| {
            quote! {
                /// The element's bytes in the file (a repetition of these records written at once).
                #[inline(always)]
                pub(crate) fn to_record(&self, endian: ::binspec_runtime::Endian) -> [u8; #n] {
                    #own
                    let mut b = [0u8; #n];
                    #(#puts)*
                    b
                }
            }
        });
        quote!(#from #to)
    }

    /// The function that decodes one element of the repetition `f` from its record, for
    /// `binspec_runtime::records::decode` (given the record and the byte order in scope).
    pub(super) fn record_decoder(&self, f: &Field) -> Option<TokenStream> {
        self.record_size(f)?;
        Some(match &f.ty {
            FieldTy::User { ty, .. } => {
                self.note_call(*ty, Fun::FromRecord);
                let n = ty_ident(&self.m.types[*ty].rust);
                quote!(#n::from_record)
            }
            _ => {
                let e = endian_tokens(num_endian(f));
                quote!(|b, endian| ::binspec_runtime::records::get(b, 0, #e))
            }
        })
    }

    /// The function that makes one element's record of the repetition `f`, for `Writer::records` (given the
    /// element and the byte order in scope).
    pub(super) fn record_encoder(&self, f: &Field) -> Option<TokenStream> {
        let size = self.record_size(f)?;
        Some(match &f.ty {
            FieldTy::User { .. } => quote!(|x, endian| x.to_record(endian)),
            _ => {
                let e = endian_tokens(num_endian(f));
                let n = Literal::usize_unsuffixed(size);
                quote!(|x, endian| {
                    let mut b = [0u8; #n];
                    ::binspec_runtime::records::put(&mut b, 0, *x, #e);
                    b
                })
            }
        })
    }
}

/// The size of a number that a record holds as itself: an integer of 1, 2, 4 or 8 bytes or a float, kept by the
/// model as read ([`Gen::plain_element_size`] checks the rest).
fn num_size(f: &Field) -> Option<usize> {
    if f.repeat != Repeat::None || f.enum_.is_some() || !matches!(f.role, Role::Data) {
        return None;
    }
    match f.ty {
        FieldTy::Int { bytes, .. } if matches!(bytes, 1 | 2 | 4 | 8) => Some(bytes as usize),
        FieldTy::Float { bytes, .. } => Some(bytes as usize),
        _ => None,
    }
}

/// The byte order a number is written in: its own, or `None` for the type's.
fn num_endian(f: &Field) -> Option<Endian> {
    match f.ty {
        FieldTy::Int { endian, .. } | FieldTy::Float { endian, .. } => endian,
        _ => None,
    }
}
