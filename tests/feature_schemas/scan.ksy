meta:
  id: scan
  endian: be
doc: |
  Exercises `-scan`: two streams without a stored length. `words` (s16) end where the tag "MID!" is found,
  looking every 2 bytes from their start; `tail` (bytes) ends at "END" or "STOP", looking at every byte, or at the
  end of the file (`or-eos`). An optional trailer follows.
seq:
  - id: magic
    contents: SCAN
  - id: words
    type: s2
    repeat: eos
    -scan:
      tag: MID!
      step: 2
  - id: mid_tag
    contents: MID!
  - id: tail
    type: u1
    repeat: eos
    -scan:
      tags: [END, STOP]
      or-eos: true
  - id: trailer
    size-eos: true
    if: not _io.eof
    doc: The tag that ended `tail`, and what follows it.
