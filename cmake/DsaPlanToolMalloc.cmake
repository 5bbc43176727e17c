# dsaplan_use_tool_malloc(<tool>): links the executable <tool> with
# jemalloc's malloc and free in place of glibc's.
#
# Why: MLIR allocates an operation, its operands' use lists, its attribute
# dictionary and its properties one by one, and the passes copy path states
# and interval sets at every branch. On the 10k-tile kernel of bench/pipeline,
# glibc's malloc and free (with their chunk consolidation) are about 4% of
# the instructions of --dsa-plan and more of its time. jemalloc serves small
# sizes from size-classed runs; rustc ships with it for the same reason
# (bench/pipeline/README.md, "The tools' allocator", has the figures).
#
# Only the tools: the libraries and the Python module take the allocator of
# the program that loads them. The archive is linked into the executable, so
# the tool needs no jemalloc at run time; the executable exports malloc and
# free, and the shared C and C++ runtimes call them there.
#
# DSAPLAN_TOOL_MALLOC selects: `jemalloc` (the default; scripts/setup.sh
# installs libjemalloc-dev) or `system`. Sanitizer builds keep the system's:
# AddressSanitizer replaces malloc itself. The output never depends on it.

set(DSAPLAN_TOOL_MALLOC "jemalloc" CACHE STRING
    "The allocator linked into the dsaplan tools: jemalloc or system")
set_property(CACHE DSAPLAN_TOOL_MALLOC PROPERTY STRINGS jemalloc system)

set(_dsaplan_tool_malloc_archive "")
if(DSAPLAN_TOOL_MALLOC STREQUAL "jemalloc")
  if("${CMAKE_CXX_FLAGS} ${CMAKE_EXE_LINKER_FLAGS}" MATCHES "-fsanitize=")
    message(STATUS "dsaplan tools: the system's malloc (sanitizers replace it)")
  else()
    find_library(DSAPLAN_JEMALLOC_ARCHIVE NAMES libjemalloc_pic.a libjemalloc.a)
    if(DSAPLAN_JEMALLOC_ARCHIVE)
      set(_dsaplan_tool_malloc_archive "${DSAPLAN_JEMALLOC_ARCHIVE}")
      message(STATUS "dsaplan tools: jemalloc (${DSAPLAN_JEMALLOC_ARCHIVE})")
    else()
      message(WARNING "dsaplan tools: jemalloc not found (install "
                      "libjemalloc-dev, or -DDSAPLAN_TOOL_MALLOC=system); "
                      "the tools use the system's malloc, the same output, "
                      "slower")
    endif()
  endif()
elseif(NOT DSAPLAN_TOOL_MALLOC STREQUAL "system")
  message(FATAL_ERROR "DSAPLAN_TOOL_MALLOC is '${DSAPLAN_TOOL_MALLOC}'; "
                      "expected jemalloc or system")
endif()

function(dsaplan_use_tool_malloc tool)
  if(_dsaplan_tool_malloc_archive)
    target_link_libraries(${tool} PRIVATE "${_dsaplan_tool_malloc_archive}"
                          pthread dl)
  endif()
endfunction()
