/* denovo.h — what the files of the denovo module (DeNovo for the GPU L1, GSI thesis §4.3) share:
 * its L1 vocabulary (states, events, actions, messages), the word masks every line carries, the
 * owner registry at the L2, the statistics its counters read, and its protocol and analytical
 * model. The registry entry (denovo.c) and the module's unit tests include it.
 *
 * Word granularity with line tags: an L1 line is in the array with, in its protocol word, one bit
 * per 32-bit word for Valid (low half) and one for Registered/owned (high half); a word is
 * Invalid when neither is set. Lines are at most 128 bytes (32 words), so both masks fit. */
#ifndef SYNCSCOPE_PROTOCOLS_DENOVO_DENOVO_H
#define SYNCSCOPE_PROTOCOLS_DENOVO_DENOVO_H

#include <string.h>

#include "config/schema.h"
#include "model/model.h"
#include "timing/memory_internal.h"

#define DENOVO_WORD_BYTES 4u

/* L1 states beyond the engine's I, V (valid words, none owned) and IV (not present, a read out) */
#define L1_DN_R ((l1_state)(L1_STATE_PROTOCOL_FIRST + 0))   /* present, at least one word registered here */

/* L1 events */
#define L1_DN_WORD_MISS ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 0))  /* a load of a present line needs a
                                                                      word that is Invalid */
#define L1_DN_FWD_READ ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 1))   /* the L2 forwards another L1's read
                                                                      of words registered here */
#define L1_DN_FWD_REG ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 2))    /* the L2 forwards another L1's
                                                                      registration of words owned here */
#define L1_DN_REG_ACK ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 3))    /* this L1's registration is done */
#define L1_DN_RECALL ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 4))     /* the L2 takes back words owned here
                                                                      for an atomic */

/* L1 actions */
#define L1_DN_DRAIN_LINE ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 0))   /* register the line's buffered
                                                       stores now (nothing to send if all are owned) */
#define L1_DN_REGISTER_NOW ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 1)) /* a strong store: register its
                                                       bytes (with the line's buffered ones) now; done at the ack */
#define L1_DN_CLOSE_ANY_MISS ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 2)) /* close the line's open miss, if any */
#define L1_DN_MARK_FILLED ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 3))  /* the installed fill: every word Valid */
#define L1_DN_MERGE_FILL ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 4))   /* a fill of a present line: its
                                                       non-owned words take the fill's data and become Valid */
#define L1_DN_GIVE_UP_WORDS ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 5)) /* before an atomic: its owned words
                                                       go back to the L2 (written back), its words become Invalid */
#define L1_DN_WRITE_BACK ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 6))   /* replacement: the owned words go
                                                       back to the L2, which holds them again */
#define L1_DN_SUPPLY_READ ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 7))  /* lay the owned words over a
                                                       forwarded read's data and pass it on (next owner or requester) */
#define L1_DN_SURRENDER_REG ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 8)) /* give up the registered words to
                                                       the registering L1 and pass the registration on */
#define L1_DN_SURRENDER_RECALL ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 9)) /* give the recalled words back
                                                       to the L2 with their data */
#define L1_DN_TAKE_OWNERSHIP ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 10)) /* the acknowledged words become
                                                       Registered (the line installed if absent) */
#define L1_DN_OWNED_STORE ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 11)) /* a store performed on owned words:
                                                       the store buffer drops its older bytes of them */
#define L1_DN_UNCACHED_VIEW ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 12)) /* a closed miss's fill: the waiting
                                                       loads read the fill with the words owned here when the miss
                                                       was opened laid over it (the line keeps its own data) */
#define L1_DN_SNAPSHOT_OWNED ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 13)) /* the miss just opened on a present
                                                       line keeps its owned words as they are now */

/* Messages */
#define MSG_DN_REGISTER ((message_type)(MSG_PROTOCOL_FIRST + 0))    /* CU -> L2: register the masked words */
#define MSG_DN_REG_FWD ((message_type)(MSG_PROTOCOL_FIRST + 1))     /* L2 -> old owner(s): a registration */
#define MSG_DN_REG_ACK ((message_type)(MSG_PROTOCOL_FIRST + 2))     /* L2 or old owner -> CU: registered */
#define MSG_DN_READ ((message_type)(MSG_PROTOCOL_FIRST + 3))        /* a read as the L2 bank serves it */
#define MSG_DN_FWD_READ ((message_type)(MSG_PROTOCOL_FIRST + 4))    /* L2 -> owner(s): another CU's read */
#define MSG_DN_WRITEBACK ((message_type)(MSG_PROTOCOL_FIRST + 5))   /* CU -> L2: owned words given back */
#define MSG_DN_WB_ACK ((message_type)(MSG_PROTOCOL_FIRST + 6))      /* L2 -> CU: the write-back is home */
#define MSG_DN_RECALL ((message_type)(MSG_PROTOCOL_FIRST + 7))      /* L2 -> owner: return these words */
#define MSG_DN_RECALL_DATA ((message_type)(MSG_PROTOCOL_FIRST + 8)) /* owner -> L2: the recalled words */
#define MSG_DN_REG_DONE ((message_type)(MSG_PROTOCOL_FIRST + 9))    /* CU -> L2: a forwarded registration of
                                                                       partly written words is taken */

/* A registration acknowledgement's flag (message.protocol_bits): the L2 holds the line until the
 * registrant confirms it has taken the words (MSG_DN_REG_DONE). */
#define DENOVO_CONFIRM 1u
/* A message's extension: two words (slot 0, the CUs a forwarded message still visits, a bit each;
 * slot 1, a registration's number, denovo_protocol.c), then a forwarded read's or registration's
 * copy of the registry's owners of its line (CU + 1 per word, 0: the L2) when the L2 sent it on. */
#define DENOVO_NAMED_OFFSET (2 * sizeof(uint64_t))
#define DENOVO_MESSAGE_EXTENSION (DENOVO_NAMED_OFFSET + 32)

static inline uint64_t denovo_message_slot(const message *m, unsigned slot)
{
    uint64_t value;
    memcpy(&value, m->extension + slot * sizeof value, sizeof value);
    return value;
}

static inline void denovo_set_message_slot(message *m, unsigned slot, uint64_t value)
{
    memcpy(m->extension + slot * sizeof value, &value, sizeof value);
}

/* The words of the line a forwarded message's copy of the registry names CU `cu` the owner of. */
static inline uint32_t denovo_named_words(const message *m, unsigned cu)
{
    uint32_t words = 0;
    for (unsigned w = 0; w < 32; w++)
        if (m->extension[DENOVO_NAMED_OFFSET + w] == cu + 1)
            words |= 1u << w;
    return words;
}

enum { DENOVO_STATES = 1, DENOVO_EVENTS = 5, DENOVO_ACTIONS = 14, DENOVO_MESSAGES = 10 };

/* ---- the word masks of an L1 line (cache_line.protocol_word) ---- */

static inline uint32_t denovo_valid(const cache_line *line) { return (uint32_t)line->protocol_word; }
static inline uint32_t denovo_owned(const cache_line *line) { return (uint32_t)(line->protocol_word >> 32); }
static inline void denovo_set_words(cache_line *line, uint32_t valid, uint32_t owned)
{
    line->protocol_word = (uint64_t)valid | (uint64_t)owned << 32;
}

/* Every word of a line of `line_bytes`. */
static inline uint32_t denovo_all_words(unsigned line_bytes)
{
    unsigned words = line_bytes / DENOVO_WORD_BYTES;
    return words >= 32 ? UINT32_MAX : (1u << words) - 1;
}

/* The words any byte of `mask` falls in. */
uint32_t denovo_words_of_mask(const byte_mask *mask, unsigned line_bytes);
/* The bytes of the words in `words`. */
byte_mask denovo_mask_of_words(uint32_t words);
/* The words the lanes of `op` that fall in `line` touch. */
uint32_t denovo_words_of_lanes(const memory_op *op, const coalesced_line *line);

/* ---- the owner registry of the L2 (denovo_l2.c) ----
 * One record per line with a registered word: the owner of each word (CU + 1; 0: the L2). It is
 * the L2's, kept apart from the data array so that replacing an L2 line never loses an owner. */
unsigned denovo_owner_of(const memory_system *memory, uint64_t line_address, unsigned word);  /* CU + 1, or 0 */

/* ---- configuration ---- */

/* denovo's configuration (its bytes of memory_config.protocol_config). */
typedef struct denovo_config {
    bool acquire_writes_back;   /* denovo.acquire_owned write_back (an experiment): an acquire also
                                   gives up the owned words, written back to the L2 as at replacement */
} denovo_config;

/* The key only denovo reads (denovo_protocol.c), added to the schema by the registry. */
extern const sc_config_key_table denovo_config_keys;

/* ---- statistics (the counters of runs) ---- */

typedef struct denovo_stats {
    uint64_t registrations;            /* registration requests sent (store-buffer flushes of unowned words) */
    uint64_t registration_forwards;    /* registrations the L2 forwarded to a previous owner (the extra hop) */
    uint64_t local_flushes;            /* store-buffer entries flushed without a message: every word owned */
    uint64_t owned_store_hits;         /* stores performed on owned words in the L1 (no store-buffer entry) */
    uint64_t forwarded_loads;          /* reads the L2 forwarded to the owners of words of the line */
    uint64_t remote_l1_hits;           /* forwarded reads an owner answered with words it owned */
    uint64_t ownership_evictions;      /* replaced lines whose owned words were written back to the L2
                                          (with denovo.acquire_owned write_back, also at acquires) */
    uint64_t atomic_recalls;           /* owners asked by the L2 to return words an atomic touches */
    uint64_t acquire_kept_lines;       /* lines an acquire kept because they hold owned words */
    uint64_t late_forward_answers;     /* forwarded reads and registrations answered with words
                                          written back and home before they reached the L1 */
} denovo_stats;

#define DENOVO_COUNTER_COUNT 10
extern const protocol_counter denovo_counters[DENOVO_COUNTER_COUNT];

static inline denovo_stats *denovo_stats_of(const memory_system *memory) { return memory->protocol_stats; }

/* ---- the module's parts ---- */

/* The L2 side (denovo_l2.c): building the registry, the bank's requests and answers. */
void denovo_l2_build(memory_system *memory);
void denovo_l2_destroy(memory_system *memory);
int denovo_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
bool denovo_fill_must_retake(memory_system *memory, unsigned bank, uint32_t handle);
void denovo_home_data(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data, gsi_source source,
                      sc_time when);
/* Forgets every owner of the lines of [start, end) (a host write), or of every line (end 0). */
void denovo_registry_clear(memory_system *memory, uint64_t start, uint64_t end);
/* Sends a forwarded message on to the first CU of `remaining` (a bit per CU), from `from`. */
void denovo_pass_on(memory_system *memory, uint32_t handle, endpoint from, uint64_t remaining, sc_time when);

extern const sc_protocol protocol_denovo;
extern const model_mechanism model_denovo;

#endif
