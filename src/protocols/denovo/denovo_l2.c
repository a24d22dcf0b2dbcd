/* denovo_l2.c — the L2 side of DeNovo (denovo.h, GSI §4.3): the owner registry and what a bank
 * does with each message.
 *
 * The registry records, per 32-bit word, which L1 has registered it (owns its up-to-date data);
 * a line none of whose words is registered has no record. It is the L2's, kept beside the data
 * array: a replaced L2 line keeps its owners (DeNovo's L2 keeps the owner in place of the data; a
 * registry apart from the array is that without a capacity limit, documented in docs/denovo.md).
 * Each bank takes requests in order; the array (l2_process) fetches the line when it is absent
 * and hands own-type requests to denovo_home_data, which does:
 *   Read (an L1 miss or a read around the L1): no word of the line registered at another L1 ->
 *     the data, from the L2 (or memory); otherwise the request goes with the L2's data to the
 *     owners in turn (lowest CU first), each lays its words over it, and the last answers the
 *     requester directly (REMOTE_L1, the extra hop). A read around the L1 (a strong load) goes to
 *     the requester's own registered words too, so it sees its own stores.
 *   Register (a store-buffer flush): the bytes are merged into the L2's copy, each word's owner
 *     becomes the requester; words registered at other L1s go with the registration to those
 *     owners in turn, which give them up, and the last acknowledges the requester (the extra hop
 *     that lengthens the flush: GSI PENDING_RELEASE). Otherwise the L2 acknowledges at once. A
 *     forwarded registration of partly written words holds the line until the registrant
 *     confirms (RegDone: the previous owners' bytes of those words travel only with it).
 * Responses the bank takes before any request, without the array allocating:
 *   Write-back (an owner's replacement, or its words before its own atomic): the words still
 *     registered to the sender take its data and return to the L2.
 *   RecallData, RegDone: the answers a held line waits for (below, above).
 * Atomics are performed at the L2 (no owned atomics): one that touches words registered at an
 * L1 first recalls them (the owners send their data back, the registry forgets them) and waits,
 * with every later request to its line, until every owner has answered. Requests that waited for
 * a fill go back through this check when one served from the same fill before them held the line
 * or registered an atomic's words (denovo_fill_must_retake). */
#include "protocols/denovo/denovo.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "timing/line_index.h"

typedef struct registry_record {
    uint64_t line_address;
    uint8_t owner[32];          /* CU + 1 per word; 0: the L2 holds it */
} registry_record;

/* A line whose atomic waits for recalled words, or whose forwarded registration of partly
 * written words waits to be taken, with the requests held behind it. */
typedef struct blocked_line {
    uint64_t line_address;
    unsigned awaiting;          /* owners that have not sent their words back, or the registrant */
    uint32_t head, tail;        /* held requests, linked by `next` (the atomic first), or none */
} blocked_line;

typedef struct denovo_bank {
    blocked_line *blocked;
    unsigned blocked_count, blocked_capacity;
} denovo_bank;

typedef struct denovo_home {
    registry_record *records;
    unsigned record_count, record_capacity;
    line_index index;           /* line address -> record */
    denovo_stats stats;
} denovo_home;

static denovo_home *home_of_memory(const memory_system *memory) { return memory->protocol_state; }
static denovo_bank *bank_state(memory_system *memory, unsigned bank) { return memory->banks[bank].protocol_state; }

/* ---- the registry ---- */

static registry_record *record_of(const memory_system *memory, uint64_t line_address)
{
    const denovo_home *home = home_of_memory(memory);
    uint32_t entry = line_index_find(&home->index, line_address);
    return entry == LINE_INDEX_NONE ? NULL : &home->records[entry];
}

static void reindex(denovo_home *home, unsigned capacity)
{
    line_index_free(&home->index);
    if (!line_index_init(&home->index, capacity))
        abort();
    for (unsigned i = 0; i < home->record_count; i++)
        line_index_insert(&home->index, home->records[i].line_address, i);
}

static registry_record *record_add(memory_system *memory, uint64_t line_address)
{
    denovo_home *home = home_of_memory(memory);
    registry_record *record = record_of(memory, line_address);
    if (record)
        return record;
    if (home->record_count == home->record_capacity) {
        home->record_capacity *= 2;
        home->records = realloc(home->records, home->record_capacity * sizeof *home->records);
        reindex(home, home->record_capacity);
    }
    record = &home->records[home->record_count];
    memset(record, 0, sizeof *record);
    record->line_address = line_address;
    line_index_insert(&home->index, line_address, home->record_count++);
    return record;
}

/* Drops the record once none of its words is registered (the last record moves into its place). */
static void record_tidy(memory_system *memory, registry_record *record)
{
    for (unsigned w = 0; w < 32; w++)
        if (record->owner[w])
            return;
    denovo_home *home = home_of_memory(memory);
    unsigned entry = (unsigned)(record - home->records), last = home->record_count - 1;
    line_index_remove(&home->index, record->line_address);
    if (entry != last) {
        line_index_remove(&home->index, home->records[last].line_address);
        home->records[entry] = home->records[last];
        line_index_insert(&home->index, home->records[entry].line_address, entry);
    }
    home->record_count--;
}

unsigned denovo_owner_of(const memory_system *memory, uint64_t line_address, unsigned word)
{
    const registry_record *record = record_of(memory, line_address);
    return record ? record->owner[word] : 0;
}

/* The CUs (a bit each) that own a word of `words` of the line, but `except` (CU + 1; 0: none). */
static uint64_t owners_of(const memory_system *memory, uint64_t line_address, uint32_t words, unsigned except)
{
    const registry_record *record = record_of(memory, line_address);
    uint64_t owners = 0;
    for (uint32_t w = words; record && w; w &= w - 1) {
        unsigned owner = record->owner[__builtin_ctz(w)];
        if (owner && owner != except)
            owners |= 1ull << (owner - 1);
    }
    return owners;
}

void denovo_registry_clear(memory_system *memory, uint64_t start, uint64_t end)
{
    denovo_home *home = home_of_memory(memory);
    for (unsigned i = 0; i < home->record_count;) {
        registry_record *record = &home->records[i];
        bool inside = end == 0 || (record->line_address + memory->config.line_bytes > start && record->line_address < end);
        if (!inside) {
            i++;
            continue;
        }
        memset(record->owner, 0, sizeof record->owner);
        record_tidy(memory, record);   /* the last record moved to i: look at it next */
    }
}

void denovo_l2_build(memory_system *memory)
{
    denovo_home *home = calloc(1, sizeof *home);
    home->record_capacity = 256;
    home->records = malloc(home->record_capacity * sizeof *home->records);
    reindex(home, home->record_capacity);
    memory->protocol_state = home;
    memory->protocol_stats = &home->stats;
    for (unsigned b = 0; b < memory->config.l2_banks; b++)
        memory->banks[b].protocol_state = calloc(1, sizeof(denovo_bank));
}

void denovo_l2_destroy(memory_system *memory)
{
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        free(bank_state(memory, b)->blocked);
        free(bank_state(memory, b));
    }
    denovo_home *home = home_of_memory(memory);
    line_index_free(&home->index);
    free(home->records);
    free(home);
}

/* ---- messages ---- */

void denovo_pass_on(memory_system *memory, uint32_t handle, endpoint from, uint64_t remaining, sc_time when)
{
    message *m = message_get(memory, handle);
    m->source = from;
    m->destination = endpoint_cu((unsigned)__builtin_ctzll(remaining));
    denovo_set_message_slot(m, 0, remaining);
    memory_send(memory, handle, when);
}

/* Merges the masked bytes into the bank's line (present): dirty, or sent on to memory under a
 * write-through L2. */
static void merge_into_line(memory_system *memory, cache_line *line, uint64_t line_address, const uint8_t *data,
                            const byte_mask *mask, sc_time when)
{
    byte_mask_copy(line->data, data, mask, memory->config.line_bytes);
    memory->stats.l2_writes++;
    if (memory->l2_writes_through) {
        memory->stats.l2_write_throughs++;
        memory_backing_write(memory, line_address, data, mask, when);
    } else {
        line->state = L2_D;
    }
}

/* Recalled words reach the home: into the bank's line if it holds it, else below it (a fill on
 * its way reads the image when it completes). */
static void merge_into_home(memory_system *memory, unsigned bank, uint64_t line_address, const uint8_t *data,
                            const byte_mask *mask, sc_time now)
{
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(memory->banks[bank].cache, local);
    if (line && line->state != L2_IV)
        merge_into_line(memory, line, line_address, data, mask, now);
    else if (!byte_mask_empty(mask))
        memory_backing_write(memory, line_address, data, mask, now);
}

static blocked_line *blocked_of(denovo_bank *state, uint64_t line_address)
{
    for (unsigned i = 0; i < state->blocked_count; i++)
        if (state->blocked[i].line_address == line_address)
            return &state->blocked[i];
    return NULL;
}

static blocked_line *block_line(memory_system *memory, unsigned bank, uint64_t line_address, uint32_t first)
{
    denovo_bank *state = bank_state(memory, bank);
    if (state->blocked_count == state->blocked_capacity) {
        state->blocked_capacity = state->blocked_capacity ? 2 * state->blocked_capacity : 4;
        state->blocked = realloc(state->blocked, state->blocked_capacity * sizeof *state->blocked);
    }
    blocked_line *blocked = &state->blocked[state->blocked_count++];
    *blocked = (blocked_line){line_address, 0, first, first};
    if (first != MESSAGE_NONE)
        message_get(memory, first)->next = MESSAGE_NONE;
    return blocked;
}

/* One awaited answer for a blocked line arrived; the last lets the held requests go, in order. */
static void unblock_one(memory_system *memory, unsigned bank, uint64_t line_address, sc_time now)
{
    denovo_bank *state = bank_state(memory, bank);
    blocked_line *blocked = blocked_of(state, line_address);
    if (--blocked->awaiting)
        return;
    if (blocked->head != MESSAGE_NONE)
        l2_requeue_front(memory, bank, blocked->head, blocked->tail, now);
    *blocked = state->blocked[--state->blocked_count];
}

/* The words the lanes of atomic `m` touch. */
static uint32_t atomic_words(memory_system *memory, const message *m)
{
    const memory_op *op = memory_op_get(memory, m->op);
    coalesced_line lanes = {.line_address = m->line_address, .lanes = memory_op_lanes_in_line(memory, op, m->line_address)};
    return denovo_words_of_lanes(op, &lanes);
}

/* An atomic whose words are registered at L1s: recall them and hold the line until they are back.
 * False when none is registered (the atomic may be performed now). */
static bool recall_for_atomic(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    uint32_t words = atomic_words(memory, m);
    uint64_t owners = owners_of(memory, m->line_address, words, 0);
    if (!owners)
        return false;
    registry_record *record = record_of(memory, m->line_address);
    blocked_line *blocked = block_line(memory, bank, m->line_address, handle);
    sc_time when = now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency);
    for (uint64_t o = owners; o; o &= o - 1) {
        unsigned cu = (unsigned)__builtin_ctzll(o);
        uint32_t theirs = 0;
        for (uint32_t w = words; w; w &= w - 1)
            if (record->owner[__builtin_ctz(w)] == cu + 1) {
                theirs |= 1u << __builtin_ctz(w);
                record->owner[__builtin_ctz(w)] = 0;
            }
        uint32_t recall = message_allocate(memory, MSG_DN_RECALL, endpoint_l2_bank(bank), endpoint_cu(cu),
                                           m->line_address);
        message_get(memory, recall)->protocol_word = (uint64_t)theirs << 32 | cu;
        memory_send(memory, recall, when);
        blocked->awaiting++;
        home_of_memory(memory)->stats.atomic_recalls++;
    }
    record_tidy(memory, record);
    return true;
}

/* An owner's recalled words are merged home. */
static void recall_answered(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    const message *m = message_get(memory, handle);
    merge_into_home(memory, bank, m->line_address, m->data, &m->mask, now);
    unblock_one(memory, bank, m->line_address, now);
    message_free(memory, handle);
}

/* Owned words an L1 gave back (a replacement, or before its atomic): those the registry still names
 * it for take its data and return to the L2 (into the bank's line, or below it), the rest are
 * another L1's now. A write-back is a response: it never waits behind requests, so it reaches the
 * registry before any registration the L1 sent after it, and it is newer than every one sent
 * before (a word is owned only once every registration of it is acknowledged). */
static void writeback_arrived(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    unsigned sender = m->source.index;
    registry_record *record = record_of(memory, m->line_address);
    uint32_t kept = 0;
    for (uint32_t w = denovo_words_of_mask(&m->mask, memory->config.line_bytes); record && w; w &= w - 1)
        if (record->owner[__builtin_ctz(w)] == sender + 1) {
            kept |= 1u << __builtin_ctz(w);
            record->owner[__builtin_ctz(w)] = 0;
        }
    if (kept) {
        byte_mask mask = denovo_mask_of_words(kept);
        merge_into_home(memory, bank, m->line_address, m->data, &mask, now);
        record_tidy(memory, record);
    }
    m->type = MSG_DN_WB_ACK;
    memory_reply(memory, handle, now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency));
}

/* A registrant confirms a forwarded registration of partly written words: the words it did not
 * take, and the registry still names it for, take the bytes it sends home; the line is free again. */
static void registration_confirmed(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    registry_record *record = record_of(memory, m->line_address);
    uint32_t kept = 0;
    for (uint32_t w = denovo_words_of_mask(&m->mask, memory->config.line_bytes); record && w; w &= w - 1)
        if (record->owner[__builtin_ctz(w)] == m->source.index + 1)
            kept |= 1u << __builtin_ctz(w);
    byte_mask mask = denovo_mask_of_words(kept);
    merge_into_home(memory, bank, m->line_address, m->data, &mask, now);
    unblock_one(memory, bank, m->line_address, now);
    message_free(memory, handle);
}

int denovo_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    if (m->type == MSG_DN_RECALL_DATA) {
        recall_answered(memory, bank, handle, now);
        return 1;
    }
    if (m->type == MSG_DN_REG_DONE) {
        registration_confirmed(memory, bank, handle, now);
        return 1;
    }
    if (m->type == MSG_DN_WRITEBACK) {
        writeback_arrived(memory, bank, handle, now);
        return 1;
    }
    blocked_line *blocked = blocked_of(bank_state(memory, bank), m->line_address);
    if (blocked) {   /* behind an atomic that waits for its words */
        m->next = MESSAGE_NONE;
        if (blocked->head == MESSAGE_NONE)
            blocked->head = handle;
        else
            message_get(memory, blocked->tail)->next = handle;
        blocked->tail = handle;
        return 1;
    }
    switch ((int)m->type) {
    case MSG_READ:
        m->type = MSG_DN_READ;   /* served by the array, then checked against the registry (home_data) */
        break;
    case MSG_ATOMIC:
        if (recall_for_atomic(memory, bank, handle, now))
            return 1;
        break;
    case MSG_DN_READ:   /* a read the bank took before and must retry */
    case MSG_DN_REGISTER:
        break;
    default:
        return sc_fail(error, "internal error: denovo: L2 bank %u got a message of type %u", bank, m->type);
    }
    return l2_process(memory, bank, handle, now, error);
}

/* A request that waited for the line's fill goes back through the bank's queue (denovo_bank_receive)
 * when a request served from the same fill before it blocked the line, or when it is an atomic
 * whose words an earlier one registered. */
bool denovo_fill_must_retake(memory_system *memory, unsigned bank, uint32_t handle)
{
    const message *m = message_get(memory, handle);
    if (blocked_of(bank_state(memory, bank), m->line_address))
        return true;
    return m->type == MSG_ATOMIC && owners_of(memory, m->line_address, atomic_words(memory, m), 0);
}

/* ---- requests the array served (denovo_home_data) ---- */

static void serve_read(memory_system *memory, unsigned bank, uint32_t handle, const cache_line *line,
                       gsi_source source, sc_time when)
{
    message *m = message_get(memory, handle);
    unsigned requester = m->source.index;
    memcpy(m->data, line->data, memory->config.line_bytes);
    uint64_t owners = owners_of(memory, m->line_address, denovo_all_words(memory->config.line_bytes),
                                m->around ? 0 : requester + 1);
    if (!owners) {
        m->type = MSG_DATA;
        m->data_source = (uint8_t)source;
        memory_reply(memory, handle, when);
        return;
    }
    m->type = MSG_DN_FWD_READ;
    m->protocol_word = requester;
    memcpy(m->extension + DENOVO_NAMED_OFFSET, record_of(memory, m->line_address)->owner, 32);
    home_of_memory(memory)->stats.forwarded_loads++;
    denovo_pass_on(memory, handle, endpoint_l2_bank(bank), owners, when);
}

/* Whether some word of `words` has bytes `mask` does not cover. */
static bool partly_written(const memory_system *memory, const byte_mask *mask, uint32_t words)
{
    byte_mask whole = denovo_mask_of_words(words);
    return (whole.bits[0] & ~mask->bits[0]) || (whole.bits[1] & ~mask->bits[1]);
}

static void serve_registration(memory_system *memory, unsigned bank, uint32_t handle, cache_line *line, sc_time when)
{
    message *m = message_get(memory, handle);
    unsigned requester = m->source.index;
    uint32_t words = denovo_words_of_mask(&m->mask, memory->config.line_bytes);
    merge_into_line(memory, line, m->line_address, m->data, &m->mask, when);
    uint64_t previous = owners_of(memory, m->line_address, words, requester + 1);
    registry_record *record = record_add(memory, m->line_address);
    memcpy(m->extension + DENOVO_NAMED_OFFSET, record->owner, 32);   /* the previous owners */
    for (uint32_t w = words; w; w &= w - 1)
        record->owner[__builtin_ctz(w)] = (uint8_t)(requester + 1);
    memcpy(m->data, line->data, memory->config.line_bytes);   /* the rest of partly written words */
    m->protocol_word = (uint64_t)words << 32 | requester;
    if (!previous) {
        m->type = MSG_DN_REG_ACK;
        memory_reply(memory, handle, when);
        return;
    }
    m->type = MSG_DN_REG_FWD;
    if (partly_written(memory, &m->mask, words)) {
        /* the previous owners' bytes of those words reach the registrant only: hold the line until
           it has taken them, so no later registration or read misses them */
        m->protocol_bits = DENOVO_CONFIRM;
        block_line(memory, bank, m->line_address, MESSAGE_NONE)->awaiting = 1;
    }
    home_of_memory(memory)->stats.registration_forwards++;
    denovo_pass_on(memory, handle, endpoint_l2_bank(bank), previous, when);
}

void denovo_home_data(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data, gsi_source source,
                      sc_time when)
{
    message *m = message_get(memory, handle);
    cache_line *line = cache_array_lookup(memory->banks[bank].cache, memory_bank_local_address(memory, m->line_address));
    switch ((int)m->type) {
    case MSG_DN_READ:
        serve_read(memory, bank, handle, line, source, when);
        break;
    default:   /* MSG_DN_REGISTER, the only other type the bank hands to the array */
        serve_registration(memory, bank, handle, line, when);
        break;
    }
}
