# Writes OUT (NAME.1.gz) from the executable's own --help with help2man, so the man page never drifts
# from the code. For tpscope-cli every command's --help becomes a section of its own.
# cmake -DHELP2MAN=... -DEXE=path -DNAME=tpscope-cli -DVERSION=x.y.z -DOUT=path.1.gz -P man.cmake
get_filename_component(out_dir ${OUT} DIRECTORY)
set(include_file ${out_dir}/${NAME}.h2m)
set(roff ${out_dir}/${NAME}.1)
set(ENV{QT_QPA_PLATFORM} offscreen)

if(NAME STREQUAL "tpscope-cli")
  set(name_line "tensor-parallel decode profiler: plans, calculators, simulation, trace analysis")
  execute_process(COMMAND ${EXE} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE} --help failed")
  endif()
  # The commands are the lines of the SUBCOMMANDS block: "  name   description".
  string(REGEX REPLACE ".*Subcommands:\n" "" block "${top}")
  string(REGEX REPLACE "\n\n.*" "" block "${block}")
  string(REGEX MATCHALL "\n? *[a-z][a-z-]*" names "${block}")
  set(text "[COMMANDS]\n")
  foreach(n IN LISTS names)
    string(STRIP "${n}" n)
    execute_process(COMMAND ${EXE} ${n} --help OUTPUT_VARIABLE help)
    string(REPLACE "\\" "\\\\" help "${help}")
    string(REPLACE "\n." "\n\\&." help "${help}")
    string(APPEND text ".SS ${n}\n.nf\n${help}\n.fi\n")
  endforeach()
  string(APPEND text "[EXIT STATUS]\n0 success, 1 the work failed (a file missing, unreadable or not a trace; a device error; nothing ran), 2 the command line was wrong.\n")
else()
  set(name_line "desktop profiler for tensor-parallel LLM decode")
  set(text "")
endif()
string(APPEND text "[SEE ALSO]\nThe user guide and the command reference: docs/guide.md and docs/cli.md in the tpscope sources.\n")
file(WRITE ${include_file} "${text}")

execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 --name=${name_line}
                        --version-string=${VERSION} --include=${include_file} --output=${roff} ${EXE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${EXE}")
endif()
execute_process(COMMAND gzip -9n -f ${roff} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed for ${roff}")
endif()
