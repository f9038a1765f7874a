// Output taller than the terminal goes through a pager, as `git log` does.
#pragma once

#include <string_view>

#include "libtemplate/core/result.hpp"

namespace ptmpl::cli {

/// Writes `text` to standard output, through a pager when standard output is a terminal and
/// `text` has more lines than the terminal has rows. The pager is `$PTMPL_PAGER`, else
/// `$PAGER`, else `less`, run by `/bin/sh -c`; an empty one or `cat` means none. `LESS`
/// defaults to `FRX` (quit when the text fits, keep colours, leave the screen as it is). A
/// pager that cannot start (the shell reports 126 or 127) is passed by: the text is printed
/// directly. A pager quit before the end (a closed pipe) is no error.
Status write_paged(std::string_view text);

}  // namespace ptmpl::cli
