# uop_add_library(name SOURCES... DEPENDS tblgen-targets... LINK uop-libs...)
# A static library of ours, PIC, linked against the shared MLIR/LLVM, installed and
# exported as UOp::<name> for find_package(UOp).
set_property(GLOBAL PROPERTY UOP_EXPORTED_LIBS "")
function(uop_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  # The imported MLIR/LLVM targets carry no include directories; ours do, so a
  # consumer needs nothing but target_link_libraries(... UOp::<name>).
  target_include_directories(${name} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  target_link_libraries(${name} PUBLIC ${ARG_LINK} ${UOP_MLIR_LIBS})
  set_property(GLOBAL APPEND PROPERTY UOP_EXPORTED_LIBS ${name})
  install(TARGETS ${name} EXPORT UOpTargets ARCHIVE DESTINATION lib)
endfunction()
