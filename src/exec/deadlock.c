/* deadlock.c — the shared part of the engines' deadlock detectors (deadlock.h): watching the
 * progress signature, and naming the instructions the warps spin on. */
#include "exec/deadlock.h"

#include <stdio.h>
#include <string.h>

#include "exec/execute.h"

exec_progress exec_progress_observe(exec_progress_watch *watch, uint64_t signature, uint64_t now, uint64_t window)
{
    if (signature != watch->signature || now < watch->since) {
        *watch = (exec_progress_watch){.signature = signature, .since = now};
        return EXEC_PROGRESSING;
    }
    return now - watch->since >= window     ? EXEC_DEADLOCKED
           : now - watch->since >= window / 2 ? EXEC_SPIN_SUSPECTED
                                              : EXEC_PROGRESSING;
}

void exec_progress_add_warp(exec_progress_watch *watch, const exec_warp *warp)
{
    exec_spin_lines *lines = &watch->lines;
    const ptx_instruction *in = warp->done ? NULL : exec_warp_next_instruction(warp);
    if (!in || lines->count == 8)
        return;
    int at = 0;
    while (at < lines->count && lines->lines[at] < in->line)
        at++;
    if (at < lines->count && lines->lines[at] == in->line)
        return;
    memmove(lines->lines + at + 1, lines->lines + at, (size_t)(lines->count - at) * sizeof lines->lines[0]);
    memmove(lines->opcodes + at + 1, lines->opcodes + at, (size_t)(lines->count - at) * sizeof lines->opcodes[0]);
    lines->lines[at] = in->line;
    lines->opcodes[at] = (uint16_t)in->opcode;
    lines->count++;
}

int exec_deadlock_fail(const exec_progress_watch *watch, const exec_warp *any_warp, const char *window_text,
                       sc_error *error)
{
    const exec_spin_lines *lines = &watch->lines;
    char spin[512] = "";
    size_t used = 0;
    for (int i = 0; i < lines->count && used < sizeof spin; i++)
        used += (size_t)snprintf(spin + used, sizeof spin - used, "%s%d (%s)", i ? ", " : "", lines->lines[i],
                                 ptx_opcode_name((ptx_opcode)lines->opcodes[i]));
    return sc_fail(error, "kernel %s: deadlock: no warp changed a register or exited in %s; the warps spin at %s "
                   "line%s %s", any_warp->kernel->entry->name, window_text, any_warp->kernel->module->path,
                   lines->count == 1 ? "" : "s", spin);
}
