"""The compiled loop of the thresholded join's candidate pairs (``_similarity_join.c``)."""

from _typeshed import ReadableBuffer, WriteableBuffer

def first_visits(
    keys: ReadableBuffer,
    starts: ReadableBuffer,
    probe_doc: ReadableBuffer,
    probe_key: ReadableBuffer,
    probe_rest: ReadableBuffer,
    probe_floor: ReadableBuffer,
    groups: ReadableBuffer,
    group_starts: ReadableBuffer,
    group_profile: ReadableBuffer,
    posting_slot: ReadableBuffer,
    posting_rest: ReadableBuffer,
    records: WriteableBuffer,
    probe_profile: ReadableBuffer,
    need: ReadableBuffer,
    columns: int,
    sorted_need: ReadableBuffer,
    least_column: ReadableBuffer,
    greatest_column: ReadableBuffer,
    present: ReadableBuffer,
    excess: ReadableBuffer,
    out_p: WriteableBuffer,
    out_q: WriteableBuffer,
    /,
) -> int: ...
