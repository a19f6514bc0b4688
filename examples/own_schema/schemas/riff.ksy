meta:
  id: riff
  title: RIFF container (WAV, AVI, WebP)
  endian: le
  encoding: ASCII
doc: |
  The Resource Interchange File Format: a "RIFF" header whose size counts the rest of the file, a four-character
  form type ("WAVE", "AVI ", "WEBP"), then chunks, each a four-character id, a size and that many bytes, padded to
  an even length. Written for binspec's example of a tool with its own schema; the sizes are derived by the writer.
doc-ref: https://learn.microsoft.com/en-us/windows/win32/xaudio2/resource-interchange-file-format--riff-
seq:
  - id: magic
    contents: RIFF
  - id: len_body
    type: u4
  - id: body
    size: len_body
    type: body
types:
  body:
    seq:
      - id: form_type
        type: str
        size: 4
      - id: chunks
        type: chunk
        repeat: eos
  chunk:
    seq:
      - id: id
        type: str
        size: 4
      - id: len_data
        type: u4
      - id: data
        size: len_data
      - id: pad
        size: len_data % 2
