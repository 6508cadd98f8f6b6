# One place for warning flags so every target reads the same.
add_library(tpscope_warnings INTERFACE)
target_compile_options(tpscope_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>)
