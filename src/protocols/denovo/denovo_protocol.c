/* denovo_protocol.c — DeNovo for the GPU L1 (GSI thesis §4.1, §4.3; DeNovo's word states from
 * its papers [15, 19, 28], as the digest ../shared/seeds/digests/001-gsi.md records them): the L1
 * table, its actions and guards, the L1's messages, and the CU's memory-model hooks. The L2 side
 * (owner registry, forwarding, recalls) is denovo_l2.c.
 *
 * Coherence state is kept per 32-bit word (Invalid, Valid, Registered/owned) with line tags: a
 * line is in the array in V (some words Valid, none owned) or R (some word owned here), its word
 * masks in the line's protocol word (denovo.h).
 *   Loads hit on Valid or owned words; a load of a present line that needs an Invalid word is a
 *     word miss (WordMiss). A miss first registers the line's buffered stores (so the L2 has
 *     them), then reads the whole line; its fill makes every word that is not owned here Valid.
 *     Strong loads (relaxed/acquire at GPU or system scope) read around the L1 unless every word
 *     they need is owned here.
 *   Stores to words all owned here are performed in the L1 (no store-buffer entry, nothing to
 *     register). Others go into the 32-entry write-combining store buffer (and into the line, if
 *     present); a store to a line whose miss is out closes the miss (its fill answers the older
 *     loads only). The buffer is flushed when full, on a release and at kernel end: each entry
 *     with a word not owned here is sent as a registration request to the L2 (its bytes travel
 *     with it); an entry of owned words only is done in place. Strong stores register at once
 *     and are done at the acknowledgement. The acknowledged words become Registered (the line is
 *     installed if absent), unless another L1's registration took them meanwhile.
 *   An acquire (ld.acquire, atom.acquire, fence, kernel start) self-invalidates every Valid word
 *     that is not owned: lines without owned words are dropped, the others keep their owned words;
 *     misses in flight no longer fill the L1. (denovo.acquire_owned write_back, an experiment, also
 *     replaces the lines with owned words, as below.) A release (st.release, fence, kernel end) flushes the
 *     store buffer and waits for every registration; owned data is not written back.
 *   Ownership ends at replacement (the owned words are written back to the L2, which holds them
 *     again), when another L1 registers the word (the L2 forwards that registration here: the
 *     words are given up, the bytes the registrant did not write travel on with it, and this L1
 *     acknowledges the registrant directly), or when an atomic at the L2 recalls it.
 *   Atomics are performed at the L2 (no owned atomics): the CU first registers the line's buffered
 *     stores and gives its own owned words of the atomic back to the L2; other owners' words are
 *     recalled by the L2.
 *   A read the L2 forwards here gets this L1's owned words laid over the L2's data and goes on
 *     to the next owner or, from the last, to the requester (REMOTE_L1 in GSI).
 * Decisions the thesis leaves open are listed in docs/denovo.md (the registry beside the array,
 * line-granular reads, several owners of one line answering in turn, how a registration that
 * crosses a forwarded one is resolved).
 */
#include "protocols/denovo/denovo.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "timing/line_index.h"

#define ROW PROTOCOL_ROW
#define GUARDED PROTOCOL_GUARDED_ROW

/* Guards */
enum {
    G_MISS_OPEN = 1,   /* the line's miss is out and still merging */
    G_WORDS_OWNED,     /* every word of the access is owned here */
    G_KEEPS_OWNED,     /* an owned word remains outside the access's or message's words */
    G_TAKES,           /* the acknowledgement makes a word Registered here (and the line has a way) */
};

static const protocol_transition denovo_table[] = {
    ROW(L1_I,    L1_LOAD,          L1_IV,   L1_DN_DRAIN_LINE, L1_OPEN_MISS),
    ROW(L1_IV,   L1_LOAD,          L1_IV,   L1_MERGE),
    ROW(L1_V,    L1_LOAD,          L1_V,    L1_HIT),
    ROW(L1_DN_R, L1_LOAD,          L1_DN_R, L1_HIT),

    GUARDED(L1_V,    L1_DN_WORD_MISS, G_MISS_OPEN, L1_V,    L1_MERGE),
    ROW(L1_V,        L1_DN_WORD_MISS,              L1_V,    L1_DN_DRAIN_LINE, L1_OPEN_MISS, L1_DN_SNAPSHOT_OWNED),
    GUARDED(L1_DN_R, L1_DN_WORD_MISS, G_MISS_OPEN, L1_DN_R, L1_MERGE),
    ROW(L1_DN_R,     L1_DN_WORD_MISS,              L1_DN_R, L1_DN_DRAIN_LINE, L1_OPEN_MISS, L1_DN_SNAPSHOT_OWNED),

    ROW(L1_I,    L1_LOAD_STRONG,   L1_I,    L1_DN_DRAIN_LINE, L1_READ_AROUND),
    ROW(L1_IV,   L1_LOAD_STRONG,   L1_IV,   L1_DN_DRAIN_LINE, L1_READ_AROUND),
    ROW(L1_V,    L1_LOAD_STRONG,   L1_V,    L1_DN_DRAIN_LINE, L1_READ_AROUND),
    GUARDED(L1_DN_R, L1_LOAD_STRONG, G_WORDS_OWNED, L1_DN_R, L1_HIT),
    ROW(L1_DN_R,     L1_LOAD_STRONG,                L1_DN_R, L1_DN_DRAIN_LINE, L1_READ_AROUND),

    ROW(L1_I,    L1_STORE,         L1_I,    L1_BUFFER_STORE),
    ROW(L1_IV,   L1_STORE,         L1_I,    L1_CLOSE_MISS, L1_BUFFER_STORE),
    ROW(L1_V,    L1_STORE,         L1_V,    L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS, L1_BUFFER_STORE),
    GUARDED(L1_DN_R, L1_STORE, G_WORDS_OWNED, L1_DN_R, L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS, L1_DN_OWNED_STORE),
    ROW(L1_DN_R,     L1_STORE,                L1_DN_R, L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS, L1_BUFFER_STORE),

    ROW(L1_I,    L1_STORE_STRONG,  L1_I,    L1_DN_REGISTER_NOW),
    ROW(L1_IV,   L1_STORE_STRONG,  L1_I,    L1_CLOSE_MISS, L1_DN_REGISTER_NOW),
    ROW(L1_V,    L1_STORE_STRONG,  L1_V,    L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS, L1_DN_REGISTER_NOW),
    GUARDED(L1_DN_R, L1_STORE_STRONG, G_WORDS_OWNED, L1_DN_R, L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS,
            L1_DN_OWNED_STORE),
    ROW(L1_DN_R,     L1_STORE_STRONG,                L1_DN_R, L1_UPDATE_LINE, L1_DN_CLOSE_ANY_MISS, L1_DN_REGISTER_NOW),

    ROW(L1_I,    L1_ATOMIC,        L1_I,    L1_DN_DRAIN_LINE, L1_SEND_ATOMIC),
    ROW(L1_IV,   L1_ATOMIC,        L1_I,    L1_DN_DRAIN_LINE, L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_V,    L1_ATOMIC,        L1_V,    L1_DN_DRAIN_LINE, L1_DN_GIVE_UP_WORDS, L1_SEND_ATOMIC),
    GUARDED(L1_DN_R, L1_ATOMIC, G_KEEPS_OWNED, L1_DN_R, L1_DN_DRAIN_LINE, L1_DN_GIVE_UP_WORDS, L1_SEND_ATOMIC),
    ROW(L1_DN_R,     L1_ATOMIC,                L1_V,    L1_DN_DRAIN_LINE, L1_DN_GIVE_UP_WORDS, L1_SEND_ATOMIC),

    ROW(L1_IV,   L1_FILL,          L1_V,    L1_INSTALL_FILL, L1_DN_MARK_FILLED, L1_DELIVER_FILL),
    ROW(L1_V,    L1_FILL,          L1_V,    L1_DN_MERGE_FILL, L1_DELIVER_FILL),
    ROW(L1_DN_R, L1_FILL,          L1_DN_R, L1_DN_MERGE_FILL, L1_DELIVER_FILL),
    ROW(L1_I,    L1_FILL_UNCACHED, L1_I,    L1_DN_UNCACHED_VIEW, L1_DELIVER_FILL),
    ROW(L1_IV,   L1_FILL_UNCACHED, L1_I,    L1_DN_UNCACHED_VIEW, L1_DELIVER_FILL),
    ROW(L1_V,    L1_FILL_UNCACHED, L1_V,    L1_DN_UNCACHED_VIEW, L1_DELIVER_FILL),
    ROW(L1_DN_R, L1_FILL_UNCACHED, L1_DN_R, L1_DN_UNCACHED_VIEW, L1_DELIVER_FILL),

    ROW(L1_V,    L1_REPLACE,       L1_I,    L1_DROP_LINE, L1_DN_CLOSE_ANY_MISS),
    ROW(L1_DN_R, L1_REPLACE,       L1_I,    L1_DN_WRITE_BACK, L1_DROP_LINE, L1_DN_CLOSE_ANY_MISS),

    ROW(L1_I,    L1_DN_FWD_READ,   L1_I,    L1_DN_SUPPLY_READ),
    ROW(L1_IV,   L1_DN_FWD_READ,   L1_IV,   L1_DN_SUPPLY_READ),
    ROW(L1_V,    L1_DN_FWD_READ,   L1_V,    L1_DN_SUPPLY_READ),
    ROW(L1_DN_R, L1_DN_FWD_READ,   L1_DN_R, L1_DN_SUPPLY_READ),

    ROW(L1_I,    L1_DN_FWD_REG,    L1_I,    L1_DN_SURRENDER_REG),
    ROW(L1_IV,   L1_DN_FWD_REG,    L1_IV,   L1_DN_SURRENDER_REG),
    ROW(L1_V,    L1_DN_FWD_REG,    L1_V,    L1_DN_SURRENDER_REG),
    GUARDED(L1_DN_R, L1_DN_FWD_REG, G_KEEPS_OWNED, L1_DN_R, L1_DN_SURRENDER_REG),
    ROW(L1_DN_R,     L1_DN_FWD_REG,                L1_V,    L1_DN_SURRENDER_REG),

    ROW(L1_I,    L1_DN_RECALL,     L1_I,    L1_DN_SURRENDER_RECALL),
    ROW(L1_IV,   L1_DN_RECALL,     L1_IV,   L1_DN_SURRENDER_RECALL),
    ROW(L1_V,    L1_DN_RECALL,     L1_V,    L1_DN_SURRENDER_RECALL),
    GUARDED(L1_DN_R, L1_DN_RECALL, G_KEEPS_OWNED, L1_DN_R, L1_DN_SURRENDER_RECALL),
    ROW(L1_DN_R,     L1_DN_RECALL,                L1_V,    L1_DN_SURRENDER_RECALL),

    GUARDED(L1_I,  L1_DN_REG_ACK, G_TAKES, L1_DN_R, L1_DN_TAKE_OWNERSHIP),
    ROW(L1_I,      L1_DN_REG_ACK,          L1_I,    L1_NONE),
    GUARDED(L1_IV, L1_DN_REG_ACK, G_TAKES, L1_DN_R, L1_DN_TAKE_OWNERSHIP),
    ROW(L1_IV,     L1_DN_REG_ACK,          L1_IV,   L1_NONE),
    GUARDED(L1_V,  L1_DN_REG_ACK, G_TAKES, L1_DN_R, L1_DN_TAKE_OWNERSHIP),
    ROW(L1_V,      L1_DN_REG_ACK,          L1_V,    L1_NONE),
    ROW(L1_DN_R,   L1_DN_REG_ACK,          L1_DN_R, L1_DN_TAKE_OWNERSHIP),
};

static const protocol_own_state denovo_states[DENOVO_STATES] = {{"R", true}};
static const char *const denovo_events[DENOVO_EVENTS] = {"WordMiss", "FwdRead", "FwdReg", "RegAck", "Recall"};
static const protocol_own_action denovo_actions[DENOVO_ACTIONS] = {
    {"drain_line", false},      {"register_now", false},     {"close_any_miss", false}, {"mark_filled", false},
    {"merge_fill", false},      {"give_up_words", false},    {"write_back", false},     {"supply_read", false},
    {"surrender_reg", false},   {"surrender_recall", false}, {"take_ownership", false},
    {"owned_store", false}, {"uncached_view", false}, {"snapshot_owned", false},
};
/* name, carries a line, a response at the bank, coherence traffic to a CU, traffic class
 * (docs/noc-energy.md) */
static const protocol_own_message denovo_messages[DENOVO_MESSAGES] = {
    {"Register", false, false, false, NOC_TRAFFIC_ST},    {"RegFwd", false, false, true, NOC_TRAFFIC_RCL},
    {"RegAck", false, false, true, NOC_TRAFFIC_ST},       {"Read", false, false, false, NOC_TRAFFIC_LD},
    {"FwdRead", false, false, true, NOC_TRAFFIC_RCL},     {"WriteBack", true, true, false, NOC_TRAFFIC_RCL},
    {"WriteBackAck", false, false, false, NOC_TRAFFIC_RCL}, {"Recall", false, false, true, NOC_TRAFFIC_RCL},
    {"RecallData", true, true, false, NOC_TRAFFIC_RCL},   {"RegDone", true, true, false, NOC_TRAFFIC_RCL},
};

/* ---- word masks ---- */

uint32_t denovo_words_of_mask(const byte_mask *mask, unsigned line_bytes)
{
    uint32_t words = 0;
    for (unsigned w = 0; w * DENOVO_WORD_BYTES < line_bytes; w++)
        for (unsigned b = 0; b < DENOVO_WORD_BYTES; b++)
            if (byte_mask_test(mask, w * DENOVO_WORD_BYTES + b)) {
                words |= 1u << w;
                break;
            }
    return words;
}

byte_mask denovo_mask_of_words(uint32_t words)
{
    byte_mask mask = {{0, 0}};
    for (; words; words &= words - 1)
        byte_mask_set_range(&mask, (unsigned)__builtin_ctz(words) * DENOVO_WORD_BYTES, DENOVO_WORD_BYTES);
    return mask;
}

uint32_t denovo_words_of_lanes(const memory_op *op, const coalesced_line *line)
{
    const exec_memory_request *request = &op->request;
    uint32_t words = 0;
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    for (uint64_t m = line->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        unsigned offset = (unsigned)(request->address[lane] - line->line_address);
        for (unsigned w = offset / DENOVO_WORD_BYTES; w <= (offset + bytes - 1) / DENOVO_WORD_BYTES && w < 32; w++)
            words |= 1u << w;
    }
    return words;
}

/* ---- registrations in flight, per L1 ---- */

/* A registration of this L1 not yet acknowledged: its line, its number (in sending order; the
 * message carries it) and words, and the words another L1's registration or a recall took from
 * this L1 since it was sent (its acknowledgement must not take those). */
typedef struct pending_registration {
    uint64_t line_address;
    uint64_t sequence;
    uint32_t words;
    uint32_t revoked;
} pending_registration;

/* Owned words written back and not yet home (acknowledged): this L1 still answers for them when
 * a forwarded read, registration or recall reaches it first (the L2 still names it the owner). */
typedef struct writeback_in_flight {
    uint64_t line_address;
    uint32_t words;
    uint8_t data[TIMING_MAX_LINE_BYTES];
} writeback_in_flight;

/* Words of a line whose write-back went home (was acknowledged) this kernel, with their data, that
 * this L1 has not registered since: a forwarded read the L2 sent on before the write-back reached
 * it may still name this L1 for them and reach it later (supply_read). Forgotten at the next
 * kernel's start, when no read is in flight. */
typedef struct words_gone_home {
    uint64_t line_address;
    uint32_t words;
    uint8_t data[TIMING_MAX_LINE_BYTES];
} words_gone_home;

typedef struct denovo_l1 {
    pending_registration *pending;
    unsigned pending_count, pending_capacity;
    uint64_t next_sequence;
    writeback_in_flight *writebacks;   /* in sending order */
    unsigned writeback_count, writeback_capacity;
    words_gone_home *gone;
    unsigned gone_count, gone_capacity;
    line_index gone_index;             /* line address -> gone entry */
} denovo_l1;

static denovo_l1 *pending_state(memory_system *memory, unsigned cu) { return memory->l1[cu].protocol_state; }

/* ---- words gone home, per L1 ---- */

/* Copies the words `words` of `from` into `to` (line buffers). */
static void copy_words(uint8_t *to, const uint8_t *from, uint32_t words)
{
    for (; words; words &= words - 1) {
        unsigned w = (unsigned)__builtin_ctz(words);
        memcpy(to + w * DENOVO_WORD_BYTES, from + w * DENOVO_WORD_BYTES, DENOVO_WORD_BYTES);
    }
}

static words_gone_home *gone_of(denovo_l1 *l1, uint64_t line_address)
{
    uint32_t entry = line_index_find(&l1->gone_index, line_address);
    return entry == LINE_INDEX_NONE ? NULL : &l1->gone[entry];
}

static void gone_reindex(denovo_l1 *l1)
{
    line_index_free(&l1->gone_index);
    if (!line_index_init(&l1->gone_index, l1->gone_capacity))
        abort();
    for (unsigned i = 0; i < l1->gone_count; i++)
        line_index_insert(&l1->gone_index, l1->gone[i].line_address, i);
}

/* A write-back of `words` of the line, with `data`, is home. */
static void gone_add(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t words, const uint8_t *data)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    words_gone_home *gone = gone_of(l1, line_address);
    if (!gone) {
        if (l1->gone_count == l1->gone_capacity) {
            l1->gone_capacity *= 2;
            l1->gone = realloc(l1->gone, l1->gone_capacity * sizeof *l1->gone);
            gone_reindex(l1);
        }
        line_index_insert(&l1->gone_index, line_address, l1->gone_count);
        gone = &l1->gone[l1->gone_count++];
        gone->line_address = line_address;
        gone->words = 0;
    }
    copy_words(gone->data, data, words);
    gone->words |= words;
}

/* This L1 registers the words again: from now on the L2 names it for them because of that. */
static void gone_forget(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t words)
{
    words_gone_home *gone = gone_of(pending_state(memory, cu), line_address);
    if (gone)
        gone->words &= ~words;
}

static void gone_clear(denovo_l1 *l1)
{
    for (unsigned i = 0; i < l1->gone_count; i++)
        line_index_remove(&l1->gone_index, l1->gone[i].line_address);
    l1->gone_count = 0;
}

/* ---- registrations in flight ---- */

static uint64_t pending_add(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t words)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    gone_forget(memory, cu, line_address, words);
    if (l1->pending_count == l1->pending_capacity) {
        l1->pending_capacity = l1->pending_capacity ? 2 * l1->pending_capacity : 16;
        l1->pending = realloc(l1->pending, l1->pending_capacity * sizeof *l1->pending);
    }
    uint64_t sequence = l1->next_sequence++;
    l1->pending[l1->pending_count++] = (pending_registration){line_address, sequence, words, 0};
    return sequence;
}

static pending_registration *pending_of(memory_system *memory, unsigned cu, uint64_t sequence)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    for (unsigned i = 0; i < l1->pending_count; i++)
        if (l1->pending[i].sequence == sequence)
            return &l1->pending[i];
    return NULL;
}

static void pending_done(memory_system *memory, unsigned cu, uint64_t sequence)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    pending_registration *done = pending_of(memory, cu, sequence);
    *done = l1->pending[--l1->pending_count];
}

/* Words another L1 took: the registrations of the line in flight must not take them. */
static void pending_revoke(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t words)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    for (unsigned i = 0; i < l1->pending_count; i++)
        if (l1->pending[i].line_address == line_address)
            l1->pending[i].revoked |= words;
}

/* The words the acknowledgement of registration `sequence` makes Registered here: its words, less
 * those taken from this L1 since, and less those a later registration of the line still in flight
 * carries (its acknowledgement brings their newer data and takes them). */
static uint32_t pending_takes(memory_system *memory, unsigned cu, uint64_t sequence)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    const pending_registration *own = pending_of(memory, cu, sequence);
    uint32_t takes = own->words & ~own->revoked;
    for (unsigned i = 0; i < l1->pending_count; i++)
        if (l1->pending[i].line_address == own->line_address && l1->pending[i].sequence > sequence)
            takes &= ~l1->pending[i].words;
    return takes;
}

/* ---- sending ---- */

static sc_time after_l1(const memory_system *memory, sc_time now)
{
    return now + sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency);
}

/* Registers the masked bytes of the line but those of words already owned here (the line holds
 * them, and it alone answers for them: registering them again would name this L1 the owner anew
 * behind a write-back of them already on its way). */
static void send_registration(memory_system *memory, unsigned cu, uint64_t line_address, const uint8_t *data,
                              const byte_mask *mask, uint32_t op, sc_time now)
{
    uint32_t handle = message_allocate_request(memory, MSG_DN_REGISTER, cu, line_address);
    message *m = message_get(memory, handle);
    const cache_line *line = cache_array_lookup(memory->l1[cu].cache, line_address);
    byte_mask owned = denovo_mask_of_words(line ? denovo_owned(line) : 0);
    m->mask.bits[0] = mask->bits[0] & ~owned.bits[0];
    m->mask.bits[1] = mask->bits[1] & ~owned.bits[1];
    m->op = op;
    memcpy(m->data, data, memory->config.line_bytes);
    memory->hooks.write_sent(memory, cu);
    uint32_t words = denovo_words_of_mask(&m->mask, memory->config.line_bytes);
    denovo_set_message_slot(m, 1, pending_add(memory, cu, line_address, words));
    denovo_stats_of(memory)->registrations++;
    memory_send(memory, handle, now);
}

/* Flushes a store-buffer entry: registers its words, or, when every one is owned here (its
 * bytes are in the line already), retires it in place. */
static void flush_entry(memory_system *memory, unsigned cu, store_buffer_entry *entry, sc_time now)
{
    const cache_line *line = cache_array_lookup(memory->l1[cu].cache, entry->line_address);
    uint32_t words = denovo_words_of_mask(&entry->mask, memory->config.line_bytes);
    if (line && (words & ~denovo_owned(line)) == 0) {
        denovo_stats_of(memory)->local_flushes++;
    } else {
        send_registration(memory, cu, entry->line_address, entry->data, &entry->mask, MEMORY_OP_NONE, now);
        memory->stats.store_buffer_drains++;
    }
    store_buffer_remove(memory->l1[cu].stores, entry);
}

/* Owned words given back to the L2 (a replacement, or before an atomic); done at the ack, and
 * kept until then (writeback_in_flight). */
static void send_writeback(memory_system *memory, unsigned cu, const cache_line *line, uint32_t words, sc_time now)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    if (l1->writeback_count == l1->writeback_capacity) {
        l1->writeback_capacity = l1->writeback_capacity ? 2 * l1->writeback_capacity : 8;
        l1->writebacks = realloc(l1->writebacks, l1->writeback_capacity * sizeof *l1->writebacks);
    }
    writeback_in_flight *kept = &l1->writebacks[l1->writeback_count++];
    kept->line_address = line->address;
    kept->words = words;
    memcpy(kept->data, line->data, memory->config.line_bytes);
    uint32_t handle = message_allocate_request(memory, MSG_DN_WRITEBACK, cu, line->address);
    message *m = message_get(memory, handle);
    m->mask = denovo_mask_of_words(words);
    memcpy(m->data, line->data, memory->config.line_bytes);
    memory->hooks.write_sent(memory, cu);
    memory_send(memory, handle, now);
}

/* The oldest write-back of the line is home. */
static void writeback_done(memory_system *memory, unsigned cu, uint64_t line_address)
{
    denovo_l1 *l1 = pending_state(memory, cu);
    for (unsigned i = 0; i < l1->writeback_count; i++)
        if (l1->writebacks[i].line_address == line_address) {
            gone_add(memory, cu, line_address, l1->writebacks[i].words, l1->writebacks[i].data);
            memmove(&l1->writebacks[i], &l1->writebacks[i + 1], (l1->writeback_count - i - 1) * sizeof *l1->writebacks);
            l1->writeback_count--;
            return;
        }
}

/* The words of the line this L1 answers for: owned in the line, or written back and not yet home. */
static uint32_t answered_words(memory_system *memory, unsigned cu, uint64_t line_address, const cache_line *line)
{
    const denovo_l1 *l1 = pending_state(memory, cu);
    uint32_t words = line ? denovo_owned(line) : 0;
    for (unsigned i = 0; i < l1->writeback_count; i++)
        if (l1->writebacks[i].line_address == line_address)
            words |= l1->writebacks[i].words;
    return words;
}

/* This L1's data of the words it answers for (answered_words), newest last, over `data`. */
static void lay_answered_words(memory_system *memory, unsigned cu, uint64_t line_address, const cache_line *line,
                               uint8_t *data)
{
    const denovo_l1 *l1 = pending_state(memory, cu);
    for (unsigned i = 0; i < l1->writeback_count; i++)
        if (l1->writebacks[i].line_address == line_address)
            copy_words(data, l1->writebacks[i].data, l1->writebacks[i].words);
    if (line)
        copy_words(data, line->data, denovo_owned(line));
}

/* A copy of forwarded message `from` as `type`, from CU `cu` to `to`. */
static uint32_t copy_message(memory_system *memory, const message *from, message_type type, unsigned cu, endpoint to)
{
    uint32_t handle = message_allocate(memory, type, endpoint_cu(cu), to, from->line_address);
    message *m = message_get(memory, handle);
    m->protocol_word = from->protocol_word;
    m->op = from->op;
    m->around = from->around;
    m->mask = from->mask;
    m->protocol_bits = from->protocol_bits;
    memcpy(m->extension, from->extension, DENOVO_MESSAGE_EXTENSION);
    memcpy(m->data, from->data, memory->config.line_bytes);
    return handle;
}

/* The CUs a forwarded message still has to visit after this one. */
static uint64_t remaining_after(const message *m, unsigned cu)
{
    return denovo_message_slot(m, 0) & ~(1ull << cu);
}

/* ---- guards ---- */

/* The words of the row's access, or of its message. */
static uint32_t context_words(memory_system *memory, const l1_context *context)
{
    if (context->lanes)
        return denovo_words_of_lanes(memory_op_get(memory, context->op), context->lanes);
    return (uint32_t)(context->message->protocol_word >> 32);
}

static bool miss_open(const memory_system *memory, unsigned cu, const mshr_entry *entry)
{
    return entry && entry->opened == memory->l1[cu].epoch && !(entry->flags & L1_MSHR_CLOSED);
}

static bool guard_denovo(memory_system *memory, const l1_context *context, unsigned guard)
{
    const cache_line *line = context->cached;
    switch (guard) {
    case G_MISS_OPEN:
        return miss_open(memory, context->cu, context->entry);
    case G_WORDS_OWNED:
        return line && (context_words(memory, context) & ~denovo_owned(line)) == 0;
    case G_KEEPS_OWNED:
        return line && (denovo_owned(line) & ~context_words(memory, context)) != 0;
    default: {   /* G_TAKES */
        uint32_t takes = pending_takes(memory, context->cu, denovo_message_slot(context->message, 1));
        return takes && (line || cache_array_victim(memory->l1[context->cu].cache, context->line_address));
    }
    }
}

/* ---- actions ---- */

static void close_any_miss(memory_system *memory, unsigned cu, uint64_t line_address)
{
    mshr_entry *entry = mshr_find(memory->l1[cu].mshrs, line_address);
    if (miss_open(memory, cu, entry))
        entry->flags |= L1_MSHR_CLOSED;
}

static void drain_line(memory_system *memory, unsigned cu, uint64_t line_address, sc_time now)
{
    store_buffer_entry *entry = store_buffer_find(memory->l1[cu].stores, line_address);
    if (entry)
        flush_entry(memory, cu, entry, now);
}

static void register_now(memory_system *memory, l1_context *context, sc_time now)
{
    unsigned cu = context->cu;
    const memory_op *op = memory_op_get(memory, context->op);
    store_buffer_entry *entry = store_buffer_find(memory->l1[cu].stores, context->line_address);
    if (entry) {
        l1_write_lanes(op, context->lanes, entry->data, &entry->mask);
        send_registration(memory, cu, context->line_address, entry->data, &entry->mask, context->op, now);
        store_buffer_remove(memory->l1[cu].stores, entry);
        memory->stats.store_buffer_drains++;
    } else {
        uint8_t data[TIMING_MAX_LINE_BYTES];
        byte_mask mask = {{0, 0}};
        l1_write_lanes(op, context->lanes, data, &mask);
        send_registration(memory, cu, context->line_address, data, &mask, context->op, now);
    }
    context->awaits_ack = true;
}

static void merge_fill(memory_system *memory, l1_context *context)
{
    cache_line *line = context->cached;
    uint32_t all = denovo_all_words(memory->config.line_bytes);
    copy_words(line->data, context->message->data, all & ~denovo_owned(line));
    denovo_set_words(line, all, denovo_owned(line));
    cache_array_touch(memory->l1[context->cu].cache, line);
}

/* The atomic's words leave the L1: owned ones are written back first (they reach the L2 before
 * the atomic), and none stays readable here. */
static void give_up_words(memory_system *memory, l1_context *context, sc_time now)
{
    cache_line *line = context->cached;
    uint32_t words = context_words(memory, context), owned = denovo_owned(line) & words;
    if (owned)
        send_writeback(memory, context->cu, line, owned, now);
    denovo_set_words(line, denovo_valid(line) & ~words, denovo_owned(line) & ~words);
    pending_revoke(memory, context->cu, context->line_address, words);
    close_any_miss(memory, context->cu, context->line_address);
}

/* The words of the line forwarded message `m` names this L1 for (the registry as the L2 saw it)
 * that it no longer answers for because their write-back went home before `m` reached it (`m`
 * went to another owner first, and the write-back reached the L2 after the L2 sent `m` on): their
 * written-back data goes into `data`. Returns those words. */
static uint32_t lay_late_words(memory_system *memory, unsigned cu, const message *m, uint32_t answered, uint8_t *data)
{
    const words_gone_home *gone = gone_of(pending_state(memory, cu), m->line_address);
    uint32_t late = gone ? gone->words & denovo_named_words(m, cu) & ~answered : 0;
    if (late) {
        copy_words(data, gone->data, late);
        denovo_stats_of(memory)->late_forward_answers++;
    }
    return late;
}

/* A forwarded read lays this L1's words over the data (those gone home since the L2 sent it on from
 * their written-back data: the data the read carries for them is older) and goes on to the next
 * owner, or answers the requester. */
static void supply_read(memory_system *memory, l1_context *context, sc_time now)
{
    unsigned cu = context->cu;
    message *m = context->message;
    uint32_t answered = answered_words(memory, cu, m->line_address, context->cached);
    lay_late_words(memory, cu, m, answered, m->data);
    if (answered) {
        lay_answered_words(memory, cu, m->line_address, context->cached, m->data);
        denovo_stats_of(memory)->remote_l1_hits++;
    }
    uint64_t remaining = remaining_after(m, cu);
    unsigned requester = (unsigned)m->protocol_word;
    sc_time when = after_l1(memory, now);
    if (remaining) {
        denovo_pass_on(memory, copy_message(memory, m, MSG_DN_FWD_READ, cu, endpoint_cu(cu)), endpoint_cu(cu),
                       remaining, when);
        return;
    }
    uint32_t handle = copy_message(memory, m, MSG_DATA, cu, endpoint_cu(requester));
    if (requester == cu) {   /* a read around this L1 of words it owns: back through the L2 */
        message_get(memory, handle)->data_source = GSI_SOURCE_L2;
        event_queue_push(memory->events, when, MEMORY_EVENT_AT_CU, cu, handle);
        return;
    }
    message_get(memory, handle)->data_source = GSI_SOURCE_REMOTE_L1;
    memory_send(memory, handle, when);
}

/* Another L1 registers words owned here (or gone home since the L2 sent the registration on,
 * lay_late_words): the bytes of them it did not write go on with it, the words become Invalid
 * here, and the last owner acknowledges the registrant. */
static void surrender_registration(memory_system *memory, l1_context *context, sc_time now)
{
    unsigned cu = context->cu;
    message *m = context->message;
    uint32_t words = (uint32_t)(m->protocol_word >> 32);
    cache_line *line = context->cached;
    uint8_t mine[TIMING_MAX_LINE_BYTES];
    uint32_t answered = answered_words(memory, cu, context->line_address, line);
    uint32_t late = lay_late_words(memory, cu, m, answered, mine);
    lay_answered_words(memory, cu, context->line_address, line, mine);
    for (uint32_t w = (answered | late) & words; w; w &= w - 1)
        for (unsigned b = 0; b < DENOVO_WORD_BYTES; b++) {
            unsigned i = (unsigned)__builtin_ctz(w) * DENOVO_WORD_BYTES + b;
            if (!byte_mask_test(&m->mask, i))
                m->data[i] = mine[i];
        }
    if (line)
        denovo_set_words(line, denovo_valid(line) & ~words, denovo_owned(line) & ~words);
    pending_revoke(memory, cu, context->line_address, words);
    uint64_t remaining = remaining_after(m, cu);
    sc_time when = after_l1(memory, now);
    if (remaining) {
        denovo_pass_on(memory, copy_message(memory, m, MSG_DN_REG_FWD, cu, endpoint_cu(cu)), endpoint_cu(cu),
                       remaining, when);
        return;
    }
    memory_send(memory, copy_message(memory, m, MSG_DN_REG_ACK, cu, endpoint_cu((unsigned)m->protocol_word)), when);
}

static void surrender_recall(memory_system *memory, l1_context *context, sc_time now)
{
    unsigned cu = context->cu;
    uint32_t words = (uint32_t)(context->message->protocol_word >> 32);
    cache_line *line = context->cached;
    uint32_t handle = message_allocate_request(memory, MSG_DN_RECALL_DATA, cu, context->line_address);
    message *m = message_get(memory, handle);
    m->mask = denovo_mask_of_words(answered_words(memory, cu, context->line_address, line) & words);
    lay_answered_words(memory, cu, context->line_address, line, m->data);
    if (line)
        denovo_set_words(line, denovo_valid(line) & ~words, denovo_owned(line) & ~words);
    pending_revoke(memory, cu, context->line_address, words);
    memory_send(memory, handle, after_l1(memory, now));
}

/* Owned words are performed in the line: the store buffer drops its bytes of them, which are
 * older (a later registration would otherwise carry them home over newer data). */
static void forget_buffered_words(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t words)
{
    store_buffer_entry *entry = store_buffer_find(memory->l1[cu].stores, line_address);
    if (!entry)
        return;
    byte_mask owned = denovo_mask_of_words(words);
    entry->mask.bits[0] &= ~owned.bits[0];
    entry->mask.bits[1] &= ~owned.bits[1];
    if (byte_mask_empty(&entry->mask))
        store_buffer_remove(memory->l1[cu].stores, entry);
}

/* The acknowledged words, less any another L1 took meanwhile, become Registered: the line is
 * installed if absent (its victim replaced), newly owned words take the acknowledgement's data
 * and then the bytes the CU has buffered for the line since, which the buffer then drops. */
static int take_ownership(memory_system *memory, l1_context *context, sc_time now, sc_error *error)
{
    unsigned cu = context->cu;
    cache_array *cache = memory->l1[cu].cache;
    const message *m = context->message;
    uint32_t takes = pending_takes(memory, cu, denovo_message_slot(m, 1));
    cache_line *line = context->cached;
    if (!line) {
        line = cache_array_victim(cache, context->line_address);
        if (line->state != L1_I && l1_run_event(memory, cu, line->address, L1_REPLACE, now, error) < 0)
            return -1;
        cache_array_install(cache, line, context->line_address, L1_DN_R);
        context->cached = line;
    }
    copy_words(line->data, m->data, takes & ~denovo_owned(line));
    store_buffer_entry *buffered = store_buffer_find(memory->l1[cu].stores, context->line_address);
    if (buffered)
        byte_mask_copy(line->data, buffered->data, &buffered->mask, memory->config.line_bytes);
    denovo_set_words(line, denovo_valid(line) | takes, denovo_owned(line) | takes);
    forget_buffered_words(memory, cu, context->line_address, takes);
    cache_array_touch(cache, line);
    return 0;
}

static int action_denovo(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    unsigned cu = context->cu;
    switch ((int)action) {
    case L1_DN_DRAIN_LINE:
        drain_line(memory, cu, context->line_address, now);
        return 0;
    case L1_DN_REGISTER_NOW:
        register_now(memory, context, now);
        return 0;
    case L1_DN_CLOSE_ANY_MISS:
        close_any_miss(memory, cu, context->line_address);
        return 0;
    case L1_DN_MARK_FILLED:
        denovo_set_words(context->cached, denovo_all_words(memory->config.line_bytes), 0);
        return 0;
    case L1_DN_MERGE_FILL:
        merge_fill(memory, context);
        return 0;
    case L1_DN_GIVE_UP_WORDS:
        give_up_words(memory, context, now);
        return 0;
    case L1_DN_WRITE_BACK:
        send_writeback(memory, cu, context->cached, denovo_owned(context->cached), now);
        denovo_stats_of(memory)->ownership_evictions++;
        return 0;
    case L1_DN_SUPPLY_READ:
        supply_read(memory, context, now);
        return 0;
    case L1_DN_SURRENDER_REG:
        surrender_registration(memory, context, now);
        return 0;
    case L1_DN_SURRENDER_RECALL:
        surrender_recall(memory, context, now);
        return 0;
    case L1_DN_TAKE_OWNERSHIP:
        return take_ownership(memory, context, now, error);
    case L1_DN_UNCACHED_VIEW:   /* DELIVER_FILL then reads the message's data */
        copy_words(context->message->data, context->entry->extension, (uint32_t)context->entry->protocol_word);
        context->cached = NULL;
        return 0;
    case L1_DN_SNAPSHOT_OWNED: {
        mshr_entry *entry = mshr_find(memory->l1[cu].mshrs, context->line_address);
        entry->protocol_word = denovo_owned(context->cached);
        memcpy(entry->extension, context->cached->data, memory->config.line_bytes);
        return 0;
    }
    case L1_DN_OWNED_STORE:
        forget_buffered_words(memory, cu, context->line_address, context_words(memory, context));
        denovo_stats_of(memory)->owned_store_hits++;
        return 0;
    default:
        return l1_action_unknown(memory, context, action, now, error);
    }
}

/* ---- messages at the L1 ---- */

/* The registrant of partly written words the L2 forwarded tells the L2 it is done (the L2 held the
 * line meanwhile); the words it did not take (another L1 took them first) go home with the bytes
 * the previous owners sent along, which no one else holds. */
static void confirm_registration(memory_system *memory, unsigned cu, const message *ack, uint32_t takes, sc_time now)
{
    uint32_t handle = message_allocate_request(memory, MSG_DN_REG_DONE, cu, ack->line_address);
    message *m = message_get(memory, handle);
    m->mask = denovo_mask_of_words((uint32_t)(ack->protocol_word >> 32) & ~takes);
    memcpy(m->data, ack->data, memory->config.line_bytes);
    memory_send(memory, handle, now);
}

static int message_denovo(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    const message *m = message_get(memory, handle);
    unsigned cu = message_cu(m);
    switch ((int)m->type) {
    case MSG_DN_FWD_READ:
        return l1_run_message_event(memory, handle, L1_DN_FWD_READ, now, error);
    case MSG_DN_REG_FWD:
        return l1_run_message_event(memory, handle, L1_DN_FWD_REG, now, error);
    case MSG_DN_RECALL:
        return l1_run_message_event(memory, handle, L1_DN_RECALL, now, error);
    case MSG_DN_REG_ACK: {
        uint32_t takes = pending_takes(memory, cu, denovo_message_slot(m, 1));
        if (l1_run_message_event(memory, handle, L1_DN_REG_ACK, now, error) < 0)
            return -1;
        pending_done(memory, cu, denovo_message_slot(m, 1));
        if (m->protocol_bits & DENOVO_CONFIRM)
            confirm_registration(memory, cu, m, takes, now);
        l1_write_performed(memory, cu, now);
        if (m->op != MEMORY_OP_NONE)
            memory_op_line_done(memory, m->op, m->line_address, NULL, GSI_SOURCE_L2, now);
        return 0;
    }
    case MSG_DN_WB_ACK:
        writeback_done(memory, cu, m->line_address);
        l1_write_performed(memory, cu, now);
        return 0;
    default:
        return l1_message_unknown(memory, handle, now, error);
    }
}

/* ---- hooks ---- */

/* A load of a present line that needs a word that is neither Valid nor owned is a word miss. Without
 * a store buffer (l1.store_buffer_entries 0) a weak store registers at once, as a strong one. */
static l1_verdict before_access_denovo(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                                       l1_event *event, sc_time now, sc_error *error)
{
    if (*event == L1_STORE && memory->config.store_buffer_entries == 0)
        *event = L1_STORE_STRONG;   /* no store buffer: every store registers at once */
    if (*event != L1_LOAD)
        return L1_ACCEPTED;
    const cache_line *cached = cache_array_lookup(memory->l1[cu].cache, line->line_address);
    if (cached &&
        (denovo_words_of_lanes(memory_op_get(memory, op), line) & ~(denovo_valid(cached) | denovo_owned(cached))))
        *event = L1_DN_WORD_MISS;
    return L1_ACCEPTED;
}

typedef struct acquire_visit {
    memory_system *memory;
    cache_array *cache;
} acquire_visit;

static void self_invalidate_line(void *context, cache_line *line)
{
    acquire_visit *visit = context;
    uint32_t owned = denovo_owned(line);
    if (!owned) {
        cache_array_invalidate(visit->cache, line);
        return;
    }
    denovo_set_words(line, owned, owned);
    denovo_stats_of(visit->memory)->acquire_kept_lines++;
}

static bool holds_owned_words(const cache_line *line) { return denovo_owned(line) != 0; }

/* Self-invalidation: every Valid word that is not owned here; misses in flight become stale. With
 * denovo.acquire_owned write_back (an experiment, not the thesis's DeNovo) the lines that keep
 * owned words are then replaced: their owned words are written back to the L2, which holds them
 * again, so after the acquire the L1 holds nothing. */
static void acquire_denovo(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    acquire_visit visit = {memory, memory->l1[cu].cache};
    cache_array_for_each(visit.cache, self_invalidate_line, &visit);
    if (((const denovo_config *)memory->config.protocol_config)->acquire_writes_back)
        l1_replace_lines(memory, cu, holds_owned_words, now);
    memory->l1[cu].epoch++;
    memory->stats.l1_flash_invalidations++;
}

/* The store buffer is flushed: every entry registered (or retired in place), oldest first. */
static void release_denovo(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    for (store_buffer_entry *entry; (entry = store_buffer_oldest(memory->l1[cu].stores));)
        flush_entry(memory, cu, entry, now);
}

static void store_buffer_full_denovo(memory_system *memory, unsigned cu, sc_time now)
{
    store_buffer_entry *entry = store_buffer_oldest(memory->l1[cu].stores);
    if (entry)
        flush_entry(memory, cu, entry, now);
}

typedef struct host_visit {
    memory_system *memory;
    cache_array *cache;
    uint64_t start, end;
    bool is_write;
} host_visit;

/* Owned words are newer than the L2's copy: the image gets them (but the bytes a host write just
 * put there); after a host write the L1 keeps nothing of the range. */
static void host_visit_line(void *context, cache_line *line)
{
    host_visit *visit = context;
    unsigned line_bytes = visit->memory->config.line_bytes;
    if (line->address + line_bytes <= visit->start || line->address >= visit->end)
        return;
    uint64_t inside = line_bytes;
    uint8_t *image = sc_device_global_span(visit->memory->device, line->address, &inside);
    for (uint32_t w = denovo_owned(line); image && w; w &= w - 1)
        for (unsigned b = 0; b < DENOVO_WORD_BYTES; b++) {
            unsigned i = (unsigned)__builtin_ctz(w) * DENOVO_WORD_BYTES + b;
            uint64_t address = line->address + i;
            bool host_wrote = visit->is_write && address >= visit->start && address < visit->end;
            if (i < inside && !host_wrote)
                image[i] = line->data[i];
        }
    if (visit->is_write)
        cache_array_invalidate(visit->cache, line);
}

static void host_access_denovo(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        host_visit visit = {memory, memory->l1[cu].cache, start, end, is_write};
        cache_array_for_each(visit.cache, host_visit_line, &visit);
    }
    if (is_write)
        denovo_registry_clear(memory, start, end);
}

/* Warming dropped every L1 line (their owned words went to the image at the host read before):
 * no word is registered any more. */
static void warm_finish_denovo(memory_system *memory) { denovo_registry_clear(memory, 0, 0); }

static const sc_config_key denovo_keys[] = {
    {"denovo.acquire_owned", SC_KEY_ENUM, "", 0, 0, "keep|write_back", 0,
     "what an acquire does with the words an L1 owns: keep (GSI §4.3: owned data is not invalidated) or "
     "write_back (an experiment: the acquire also writes them back to the L2 and drops their lines, as a "
     "replacement does; docs/gsi-reproduction.md)"},
};

const sc_config_key_table denovo_config_keys = {denovo_keys, sizeof denovo_keys / sizeof denovo_keys[0]};

_Static_assert(sizeof(denovo_config) <= PROTOCOL_CONFIG_BYTES, "denovo_config outgrows protocol_config");

static int load_config_denovo(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error)
{
    ((denovo_config *)memory->protocol_config)->acquire_writes_back =
        !strcmp(sc_config_string(config, "denovo.acquire_owned"), "write_back");
    if (memory->cu_count > 64)
        return sc_fail(error, "gpu.cu_count: %s names the CUs a forwarded message visits in 64 bits, so at most 64 CUs "
                              "(got %u)", mechanism, memory->cu_count);
    if (memory->line_bytes < DENOVO_WORD_BYTES)
        return sc_fail(error, "l1.line_size: %s keeps state per %u-byte word, so lines of at least %u bytes (got %u)",
                       mechanism, DENOVO_WORD_BYTES, DENOVO_WORD_BYTES, memory->line_bytes);
    return 0;
}

static void build_denovo(memory_system *memory)
{
    denovo_l2_build(memory);
    memory->l1s_write_back = true;   /* a registered word's data stays in its L1 until evicted */
    denovo_l1 *l1s = calloc(memory->config.cu_count, sizeof *l1s);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        l1s[cu].gone_capacity = 16;
        l1s[cu].gone = malloc(l1s[cu].gone_capacity * sizeof *l1s[cu].gone);
        gone_reindex(&l1s[cu]);
        memory->l1[cu].protocol_state = &l1s[cu];
    }
}

/* A kernel starts: every L1 acquires (the engine's default), and no read is in flight, so the
 * words gone home are forgotten. */
static void kernel_begin_denovo(memory_system *memory, sc_time now)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        gone_clear(pending_state(memory, cu));
        acquire_denovo(memory, cu, PTX_SCOPE_SYS, now);
    }
}

static void destroy_denovo(memory_system *memory)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        free(pending_state(memory, cu)->pending);
        free(pending_state(memory, cu)->writebacks);
        free(pending_state(memory, cu)->gone);
        line_index_free(&pending_state(memory, cu)->gone_index);
    }
    free(pending_state(memory, 0));
    denovo_l2_destroy(memory);
}

static const protocol_hooks denovo_hooks = {
    .build = build_denovo,
    .destroy = destroy_denovo,
    .load_config = load_config_denovo,
    .acquire = acquire_denovo,
    .release = release_denovo,
    .kernel_begin = kernel_begin_denovo,
    .store_buffer_full = store_buffer_full_denovo,
    .l1_before_access = before_access_denovo,
    .l1_guard = guard_denovo,
    .l1_action = action_denovo,
    .l1_message = message_denovo,
    .bank_receive = denovo_bank_receive,
    .home_data = denovo_home_data,
    .fill_must_retake = denovo_fill_must_retake,
    .host_access = host_access_denovo,
    .warm_finish = warm_finish_denovo,
};

#define COUNT(name, field) {name, NULL, offsetof(denovo_stats, field), PROTOCOL_COUNTER_TOTAL}

const protocol_counter denovo_counters[DENOVO_COUNTER_COUNT] = {
    COUNT("dn_registrations", registrations),
    COUNT("dn_registration_forwards", registration_forwards),
    COUNT("dn_local_flushes", local_flushes),
    COUNT("dn_owned_store_hits", owned_store_hits),
    COUNT("dn_forwarded_loads", forwarded_loads),
    COUNT("dn_remote_l1_hits", remote_l1_hits),
    COUNT("dn_ownership_evictions", ownership_evictions),
    COUNT("dn_atomic_recalls", atomic_recalls),
    COUNT("dn_acquire_kept_lines", acquire_kept_lines),
    COUNT("dn_late_forward_answers", late_forward_answers),
};

const sc_protocol protocol_denovo = {
    .name = "denovo",
    .l1_table = denovo_table,
    .l1_table_size = sizeof denovo_table / sizeof denovo_table[0],
    .own_states = denovo_states,
    .own_state_count = DENOVO_STATES,
    .own_events = denovo_events,
    .own_event_count = DENOVO_EVENTS,
    .own_actions = denovo_actions,
    .own_action_count = DENOVO_ACTIONS,
    .own_messages = denovo_messages,
    .own_message_count = DENOVO_MESSAGES,
    .hooks = &denovo_hooks,
    .counters = denovo_counters,
    .counter_count = DENOVO_COUNTER_COUNT,
    .extension = {.l1_mshr = TIMING_MAX_LINE_BYTES,       /* a miss's snapshot of the owned words */
                  .message = DENOVO_MESSAGE_EXTENSION},   /* denovo.h */
};
