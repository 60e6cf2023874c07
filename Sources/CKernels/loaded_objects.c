#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include "loaded_objects.h"

struct tl_visit {
    void (*visit)(const char *path, void *context);
    void *context;
};

static int tl_visit_one(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct tl_visit *v = data;
    if (info->dlpi_name != NULL && info->dlpi_name[0] == '/') v->visit(info->dlpi_name, v->context);
    return 0;
}

void tl_loaded_objects(void (*visit)(const char *path, void *context), void *context) {
    struct tl_visit v = {visit, context};
    dl_iterate_phdr(tl_visit_one, &v);
}
