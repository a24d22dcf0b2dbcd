/* alu.h — per-lane semantics of PTX arithmetic, logic, comparison and conversion instructions.
 *
 * Values travel as 64-bit patterns zero-extended from their type's width (f32 in the low 32
 * bits). Integer division by zero and signed overflow are defined here (all-ones quotient,
 * dividend remainder, wrap-around) so that no PTX input can provoke undefined behaviour in C.
 */
#ifndef SYNCSCOPE_EXEC_ALU_H
#define SYNCSCOPE_EXEC_ALU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ptx/ptx_ir.h"

/* Result of an arithmetic/logic instruction given its sources (operands 1..n in order). */
uint64_t alu_evaluate(const ptx_instruction *instruction, const uint64_t *sources);
uint64_t alu_evaluate_float(const ptx_instruction *instruction, const uint64_t *sources);
uint64_t alu_evaluate_integer(const ptx_instruction *instruction, const uint64_t *sources);
bool alu_compare(ptx_compare compare, ptx_type type, uint64_t a, uint64_t b);
uint64_t alu_convert(const ptx_instruction *instruction, uint64_t value);
/* testp: classifies an f32/f64 value. */
bool alu_test_float(ptx_testp_mode mode, ptx_type type, uint64_t bits);

static inline uint64_t alu_width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

static inline int64_t alu_sign_extend(uint64_t value, unsigned bytes)
{
    if (bytes >= 8)
        return (int64_t)value;
    unsigned shift = 64 - bytes * 8;
    return (int64_t)(value << shift) >> shift;
}

static inline float alu_as_f32(uint64_t bits)
{
    uint32_t narrow = (uint32_t)bits;
    float value;
    memcpy(&value, &narrow, sizeof value);
    return value;
}

static inline uint64_t alu_from_f32(float value)
{
    uint32_t narrow;
    memcpy(&narrow, &value, sizeof narrow);
    return narrow;
}

/* An f32 arithmetic result as the GPU produces it: any NaN result is the canonical NaN
 * 0x7fffffff. (The host's NaN payload would depend on which operand the C compiler happened to
 * put first, which may differ between the executor's whole-warp and per-lane loops.) */
static inline uint64_t alu_f32_result(float value)
{
    return value != value ? 0x7fffffffu : alu_from_f32(value);
}

static inline double alu_as_f64(uint64_t bits)
{
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline uint64_t alu_from_f64(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

float alu_half_to_float(uint16_t half);
uint16_t alu_float_to_half(float value);

#endif
