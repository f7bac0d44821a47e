#include "io/json_text.h"

#include <vector>

#include "io/json_reader.h"
#include "io/limits.h"
#include "io/text.h"

namespace scalescope {

namespace {

std::string depth_message() {
  return "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (the limit; a scenario needs about 6)";
}

// nlohmann's DOM builder behind a SAX filter that tracks the JSON pointer of the value being read, stops at the
// first value nested too deep, and words a parse error with the bad token quoted (io/text.h). The parser itself is
// iterative, so the depth is the only recursion risk a document brings.
class BoundedBuilder : public nlohmann::json_sax<Json> {
 public:
  explicit BoundedBuilder(Json& root) : dom_(root, false) {}

  std::string error_path, error_code, error_message;

  bool null() override { return value() && dom_.null(); }
  bool boolean(bool v) override { return value() && dom_.boolean(v); }
  bool number_integer(number_integer_t v) override { return value() && dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return value() && dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) override { return value() && dom_.number_float(v, s); }
  bool string(string_t& v) override { return value() && dom_.string(v); }
  bool binary(binary_t& v) override { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) override { return open(false) && dom_.start_object(n); }
  bool key(string_t& k) override {
    frames_.back().key.assign(k);  // reuses the frame's buffer
    return dom_.key(k);
  }
  bool end_object() override { return close() && dom_.end_object(); }
  bool start_array(std::size_t n) override { return open(true) && dom_.start_array(n); }
  bool end_array() override { return close() && dom_.end_array(); }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override {
    error_code = "malformed_json";
    error_message = "malformed JSON at byte " + std::to_string(position) + " near " + quote(token);
    return dom_.parse_error(position, token, e);
  }

 private:
  struct Frame {
    bool array = false;
    std::size_t next_index = 0;
    std::string key;
  };

  // A value starts: inside an array it takes the next index.
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().next_index;
    return true;
  }
  bool open(bool array) {
    value();
    if (static_cast<int>(frames_.size()) >= kMaxJsonDepth) {
      error_path = pointer();
      error_code = "too_deep";
      error_message = "this value is " + depth_message();
      return false;
    }
    frames_.push_back(Frame{array, 0, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_) p = f.array ? json_pointer_child(p, f.next_index - 1) : json_pointer_child(p, f.key);
    return p;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  std::vector<Frame> frames_;
};

// Python's json.dump writes float('inf') and float('nan') as the bare words Infinity, -Infinity and NaN, which JSON
// does not have (Nemotron-H's config.json: "time_step_limit": [0.0, Infinity]). The text with each such word outside
// a string quoted, so the document reads and a number field given one says so (json_type_name); empty when the
// text has none.
std::string quote_non_finite_literals(std::string_view text) {
  std::string out;
  bool in_string = false, changed = false;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool matched = false;
    for (std::string_view word : {"-Infinity", "Infinity", "NaN"})
      if (text.substr(i, word.size()) == word) {
        out += '"';
        out += word;
        out += '"';
        i += word.size() - 1;
        matched = changed = true;
        break;
      }
    if (!matched) out += c;
  }
  return changed ? out : std::string();
}

}  // namespace

Json parse_document(std::string_view text, Diagnostics& d) {
  const Json discarded(Json::value_t::discarded);
  if (text.size() > kMaxInputBytes) {
    add_diagnostic(d, "", "too_large",
                   "the input is " + std::to_string(text.size()) + " bytes; the limit is " +
                       std::to_string(kMaxInputBytes) + " bytes (1 MiB)");
    return discarded;
  }
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    add_diagnostic(d, "", "malformed_json", "malformed JSON at byte " + std::to_string(nul) + ": a NUL byte");
    return discarded;
  }
  Json root;
  BoundedBuilder builder(root);
  if (Json::sax_parse(text, &builder, nlohmann::detail::input_format_t::json, true)) return root;
  // Only a document that failed pays for the second look (a slider's scenario never has these words).
  if (builder.error_code == "malformed_json")
    if (const std::string quoted = quote_non_finite_literals(text); !quoted.empty()) {
      Json retry;
      BoundedBuilder again(retry);
      if (Json::sax_parse(quoted, &again, nlohmann::detail::input_format_t::json, true)) return retry;
    }
  add_diagnostic(d, builder.error_path, builder.error_code.empty() ? "malformed_json" : builder.error_code,
                 builder.error_message.empty() ? "malformed JSON" : builder.error_message);
  return discarded;
}

namespace {
// Finds the first container nested kMaxJsonDepth deep; its pointer is written on the way back up, so a sound
// document costs no string work.
bool within_depth(const Json& node, int depth, std::vector<std::string>& reversed_path) {
  if (!node.is_structured()) return true;
  if (depth >= kMaxJsonDepth) return false;
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      if (!within_depth(it.value(), depth + 1, reversed_path)) {
        reversed_path.push_back(it.key());
        return false;
      }
  } else {
    for (std::size_t i = 0; i < node.size(); ++i)
      if (!within_depth(node[i], depth + 1, reversed_path)) {
        reversed_path.push_back(std::to_string(i));
        return false;
      }
  }
  return true;
}
}  // namespace

bool check_depth(const Json& node, const std::string& path, Diagnostics& d, int depth) {
  std::vector<std::string> reversed_path;
  if (within_depth(node, depth, reversed_path)) return true;
  std::string where = path;
  for (auto it = reversed_path.rbegin(); it != reversed_path.rend(); ++it) where = json_pointer_child(where, *it);
  add_diagnostic(d, where, "too_deep", "this value is " + depth_message());
  return false;
}

std::string to_text(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace scalescope
