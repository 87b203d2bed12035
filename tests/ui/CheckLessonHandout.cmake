# SPDX-License-Identifier: GPL-3.0-or-later
# pinscope --lesson FILE --handout F.pdf (offscreen): a PDF with a title page and a page per step;
# --lesson FILE --step K --screenshot F.png; a lesson file that is not valid, or a step it does not
# have, refused (exit 2) before any window opens.
#   cmake -DPINSCOPE=... -DOUT=dir -P CheckLessonHandout.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(step "{\"title\": \"STEP\", \"seconds\": 0.5, \"question\": \"Q?\", \"choices\": [\"a\", \"b\"], \"answer\": 1, \"reveal\": \"{batches_per_s}\", \"claims\": [{\"figure\": \"batches_per_s\", \"at_least\": 0}]}")
string(REPLACE "STEP" "one" one "${step}")
string(REPLACE "STEP" "two" two "${step}")
string(REPLACE "STEP" "three" three "${step}")
file(WRITE ${OUT}/quick.json "{\"format\": 1, \"title\": \"Quick\", \"learn\": \"Handouts.\", \"base\": {\"device\": \"emulated\", \"num_workers\": 2}, \"steps\": [${one}, ${two}, ${three}]}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --lesson ${OUT}/quick.json --handout ${OUT}/quick.pdf
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "pinscope said:\n${out}${err}")
if(NOT status EQUAL 0 OR NOT EXISTS ${OUT}/quick.pdf)
  message(FATAL_ERROR "pinscope --handout exited with ${status}")
endif()
file(READ ${OUT}/quick.pdf signature LIMIT 4 HEX)
if(NOT signature STREQUAL "25504446")  # %PDF
  message(FATAL_ERROR "${OUT}/quick.pdf is not a PDF")
endif()
# One page object per page: the title page and one per step (each step's picture fits its page).
file(STRINGS ${OUT}/quick.pdf pages REGEX "/Type /Page$")
list(LENGTH pages page_count)
if(NOT page_count EQUAL 4)
  message(FATAL_ERROR "expected 4 pages (title and 3 steps), found ${page_count}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --lesson ${OUT}/quick.json --step 2 --presenter
          --screenshot ${OUT}/step2.png --size 1920x1080
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 240)
if(NOT status EQUAL 0 OR NOT err MATCHES "step 2 of 3, presenter mode" OR NOT EXISTS ${OUT}/step2.png)
  message(FATAL_ERROR "--lesson --step 2 --screenshot: exit ${status}: ${err}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --lesson ${OUT}/quick.json --step 4 --screenshot ${OUT}/x.png
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 2 OR NOT err MATCHES "--step: 4 is not allowed; expected a step of the lesson, from 1 to 3")
  message(FATAL_ERROR "--step 4 of 3: expected exit 2 and a reason, got ${status}: ${err}")
endif()
file(WRITE ${OUT}/bad.json "{\"format\": 1, \"title\": \"Bad\", \"learn\": \"x\", \"steps\": [${one}, {\"title\": \"b\", \"set\": {\"pin_memory\": 3}}]}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --lesson ${OUT}/bad.json --handout ${OUT}/bad.pdf
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 2 OR NOT err MATCHES "bad.json, step 2, set.pin_memory" OR EXISTS ${OUT}/bad.pdf)
  message(FATAL_ERROR "a bad lesson: expected exit 2 naming step 2 and set.pin_memory and no PDF, got ${status}: ${err}")
endif()
