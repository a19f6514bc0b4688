meta:
  id: r
  endian: le
doc: |
  A format whose type is named `R`, as a generic parameter of a trait method often is: the generated `BinRead` and
  `BinWrite` impls must not take the format's name for their reader's (`impl_binrw!(R)` once read `R` as the
  reader type).
seq:
  - id: value
    type: u2
