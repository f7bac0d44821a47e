#include "io/json_pointer.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace scalescope {

std::optional<std::vector<std::string>> parse_json_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  for (std::size_t at = 1;;) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    std::string token;
    for (std::size_t i = at; i < end; ++i) {
      if (pointer[i] != '~') {
        token += pointer[i];
        continue;
      }
      if (i + 1 >= end || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return std::nullopt;
      token += pointer[++i] == '0' ? '~' : '/';
    }
    tokens.push_back(std::move(token));
    if (end == pointer.size()) return tokens;
    at = end + 1;
  }
}

namespace {

// An array index as RFC 6901 writes one: "0", or digits without a leading zero (at most 9: no array is longer).
std::optional<std::size_t> array_index(const std::string& token) {
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token.front() == '0')) return std::nullopt;
  std::size_t index = 0;
  for (const char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return index;
}

}  // namespace

const Json* find_at(const Json& root, const std::vector<std::string>& tokens) {
  const Json* node = &root;
  for (const std::string& token : tokens) {
    if (node->is_object()) {
      const auto it = node->find(token);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      const auto index = array_index(token);
      if (!index || *index >= node->size()) return nullptr;
      node = &(*node)[*index];
    } else {
      return nullptr;
    }
  }
  return node;
}

}  // namespace scalescope
