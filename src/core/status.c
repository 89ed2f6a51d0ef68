/* Status strings, generated from the same X-macro list as the enum (sokol's habit). */
#include "proxima/base.h"

const char* px_status_string(px_status status)
{
    switch (status)
    {
#define PX_STATUS_CASE(name, value, message) \
    case name:                               \
        return message;
        PX_STATUS_LIST(PX_STATUS_CASE)
#undef PX_STATUS_CASE
    }
    return "unknown status";
}
