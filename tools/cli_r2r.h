/* cli_r2r.h - ReadyToRun component stubs (cli_r2r.c). */
#ifndef ASMSTORE_CLI_R2R_H
#define ASMSTORE_CLI_R2R_H
#include <stddef.h>

/* When image (any bytes, read only inside [image, image + size)) is a PE file whose ReadyToRun
   header marks it a component stub (READYTORUN_FLAG_COMPONENT) and names its composite image (the
   OWNER_COMPOSITE_EXECUTABLE section), points *name at that file name inside image (name_len bytes,
   no NUL) and returns 1; else 0. CoreCLR aborts without a message when a stub's composite is
   missing. */
int cli_r2r_composite_owner(const void *image, size_t size, const char **name, size_t *name_len);

/* Is image a component stub whose composite (*name, *name_len) has(ctx, name, len) says is not
   in the store being written? 1 or 0: pack's and repack's one rule. */
int cli_r2r_orphan(const void *image, size_t size,
                   int (*has)(const void *ctx, const char *name, size_t len), const void *ctx,
                   const char **name, size_t *name_len);
/* Into buf (cap bytes): that stub `what` names composite owner[0..len), which `absent` (e.g. "is
   not among the inputs"), and what to do (`fix`): pack's and repack's one message. */
void cli_r2r_orphan_message(char *buf, size_t cap, const char *what, const char *owner, size_t len,
                            const char *absent, const char *fix);
#endif
