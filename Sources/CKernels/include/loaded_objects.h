#ifndef THEMELAB_LOADED_OBJECTS_H
#define THEMELAB_LOADED_OBJECTS_H

/// Calls `visit` with the path of every shared object the dynamic loader has loaded into this process (glibc's
/// `dl_iterate_phdr`; the executable, whose name the loader leaves empty, and the vDSO are left out).
void tl_loaded_objects(void (*visit)(const char *path, void *context), void *context);

#endif
