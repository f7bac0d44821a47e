# Issue 18 item 5, end to end on the CLI: a team's 5-run calibration file -> `scalescope calibrate` -> a profile
# file -> `training_step` with that profile, whose band is measured on the team's own runs (each left out in turn,
# widened for so few). The checked-in profile (examples/calibration/, which the explorer's browser test loads) must
# be what the command writes today.
# Usage: cmake -DCLI=<scalescope> -DEXAMPLES=<examples/calibration> -DWORK=<scratch dir> -P calibrate_round_trip.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CLI}" calibrate "${EXAMPLES}/my-cluster-runs.json" --prefix my-cluster
                        --source "my cluster: five H100 training runs (the example of docs/validation.md)" --write "${WORK}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "calibrate: exit ${rc}\n${out}\n${err}")
endif()
foreach(id my-cluster-h100-sxm my-cluster-gpu)
  file(READ "${WORK}/${id}.json" written)
  file(READ "${EXAMPLES}/${id}.json" shipped)
  if(NOT written STREQUAL shipped)
    message(FATAL_ERROR "examples/calibration/${id}.json is not what calibrate writes today; rerun the command in "
                        "docs/validation.md \"Calibrate to your cluster\"")
  endif()
endforeach()

file(READ "${EXAMPLES}/my-cluster-runs.json" runs)
string(JSON scenario GET "${runs}" runs 1 scenario)
file(READ "${WORK}/my-cluster-h100-sxm.json" profile)
string(JSON scenario SET "${scenario}" query calibration "${profile}")
string(JSON scenario SET "${scenario}" query fidelity "\"calibrated\"")
file(WRITE "${WORK}/scenario.json" "${scenario}")
execute_process(COMMAND "${CLI}" "${WORK}/scenario.json" RESULT_VARIABLE rc OUTPUT_VARIABLE answer)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "training_step with the profile: exit ${rc}\n${answer}")
endif()
string(JSON profile_id GET "${answer}" result calibration profile id)
string(JSON band GET "${answer}" result calibration error_band text)
string(JSON scope GET "${answer}" result calibration error_band scope)
if(NOT profile_id STREQUAL "my-cluster-h100-sxm" OR NOT scope STREQUAL "fitted" OR
   NOT band MATCHES "over 5 GPU training runs of the my-cluster-h100-sxm profile, each left out of its fit in turn, widened 1.94x")
  message(FATAL_ERROR "the profile did not carry through: ${profile_id}, ${scope}: ${band}")
endif()
message(STATUS "round trip: ${profile_id}: ${band}")
