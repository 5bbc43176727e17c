# dsaplan_link_statically(<tool> <library>...): links the executable <tool>
# with the dsaplan <library>s and the MLIR and LLVM components they use as
# static archives instead of the shared libMLIR and libLLVM.
#
# Why: a tool run once per kernel pays for the shared libraries at every
# start. Debian's libMLIR.so and libLLVM.so hold every dialect and target;
# loading and relocating them takes ~0.09 s and 88 MiB before main, more than
# --dsa-plan needs for a 1000-tile kernel. Linked from the archives
# (/usr/lib/llvm-22/lib/libMLIR*.a, libLLVM*.a, shipped beside the shared
# ones), the tool holds only what it calls and starts in ~0.01 s and 8 MiB.
#
# How: the dsaplan libraries name the shared `MLIR` as a dependency (so that a
# consumer of the installed package links one copy of MLIR), and so does
# every imported MLIR archive (`LLVM`); linking them as targets would bring
# the shared libraries back, and two copies of LLVM's command-line registry
# abort at start. So the tool takes the libraries' object files, and the
# archives of DSAPLAN_STATIC_MLIR_COMPONENTS with everything they depend on,
# leaving out the shared `MLIR` and `LLVM`. The libraries and the installed
# package are unchanged.
#
# A dsaplan source that starts using another MLIR library fails to link here
# with undefined references: add the library to the list below.

set(DSAPLAN_STATIC_MLIR_COMPONENTS
  # Dialects kernels are written in (registerDsaPlanDialects) and the ones
  # the passes build or analyse.
  MLIRAffineDialect MLIRArithDialect MLIRBufferizationDialect
  MLIRBufferizationTransforms MLIRControlFlowDialect MLIRFuncDialect
  MLIRLinalgDialect MLIRMathDialect MLIRMemRefDialect MLIRSCFDialect
  MLIRSCFTransforms MLIRSCFUtils MLIRUBDialect MLIRVectorDialect
  # Passes and the driver.
  MLIRControlFlowToSCF MLIRTransforms MLIRTransformUtils MLIROptLib MLIRPass
  MLIRIR MLIRSupport
  # What libLLVM provided to the archives above.
  LLVMSupport LLVMDemangle LLVMRemarks)

# Every target `roots` depend on (INTERFACE_LINK_LIBRARIES, transitively),
# aliases resolved, in first-seen order.
function(_dsaplan_link_closure out)
  set(seen)
  set(todo ${ARGN})
  while(todo)
    list(POP_FRONT todo item)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(TARGET ${item})
      get_target_property(aliased ${item} ALIASED_TARGET)
      if(aliased)
        set(item ${aliased})
      endif()
    endif()
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(TARGET ${item})
      get_target_property(deps ${item} INTERFACE_LINK_LIBRARIES)
      if(deps)
        list(APPEND todo ${deps})
      endif()
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

function(dsaplan_link_statically tool)
  _dsaplan_link_closure(closure ${ARGN} ${DSAPLAN_STATIC_MLIR_COMPONENTS})
  set(archives)
  foreach(item ${closure})
    if(item STREQUAL "MLIR" OR item STREQUAL "LLVM")
      continue() # the shared libraries this replaces
    endif()
    if(NOT TARGET ${item})
      continue() # system libraries: linked below as needed
    endif()
    get_target_property(type ${item} TYPE)
    get_target_property(imported ${item} IMPORTED)
    if(NOT imported AND item MATCHES "^DsaPlan")
      target_sources(${tool} PRIVATE $<TARGET_OBJECTS:${item}>)
      add_dependencies(${tool} ${item})
      # Its usage requirements (include directories, definitions), not its
      # link line.
      target_include_directories(${tool} PRIVATE
        $<TARGET_PROPERTY:${item},INTERFACE_INCLUDE_DIRECTORIES>)
    elseif(imported AND type STREQUAL "STATIC_LIBRARY")
      list(APPEND archives $<TARGET_FILE:${item}>)
    elseif(type STREQUAL "INTERFACE_LIBRARY")
      target_link_libraries(${tool} PRIVATE ${item}) # header-only
    endif()
  endforeach()
  # The archives depend on each other in cycles; unused sections go.
  target_link_libraries(${tool} PRIVATE
    -Wl,--start-group ${archives} -Wl,--end-group
    -Wl,--gc-sections -Wl,--as-needed rt dl m pthread)
endfunction()
