#include "frameworks/config_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "io/json_text.h"
#include "io/limits.h"

namespace scalescope {

namespace {

struct Word {
  std::string text;
  int line = 1;
};

// Splits `text` into shell words. Quotes group, backslash-newline continues the line, `#` at a word's start
// comments to the end of the line.
bool shell_words(std::string_view text, std::vector<Word>& words, std::string& error) {
  int line = 1;
  std::string word;
  bool in_word = false;
  int word_line = 1;
  char quote = 0;
  auto end_word = [&] {
    if (in_word) words.push_back({word, word_line});
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
        word += text[++i];
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      const char next = text[++i];
      if (next == '\n') {
        ++line;
        continue;  // a line continuation
      }
      if (!in_word) word_line = line;
      in_word = true;
      word += next;
      continue;
    }
    if (c == '\'' || c == '"') {
      if (!in_word) word_line = line;
      in_word = true;
      quote = c;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
      end_word();
      continue;
    }
    if (c == '#' && !in_word) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (!in_word) word_line = line;
    in_word = true;
    word += c;
  }
  if (quote) {
    error = std::string("a ") + (quote == '"' ? "double" : "single") + " quote is not closed";
    return false;
  }
  end_word();
  return true;
}

bool is_flag(const std::string& w) {
  return w.size() > 1 && w[0] == '-' && !std::isdigit(static_cast<unsigned char>(w[1])) && w[1] != '.';
}

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// A YAML scalar less its quotes and a trailing comment.
std::string yaml_scalar(std::string_view raw) {
  std::string v = trim(raw);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'')) {
    const std::size_t close = v.find(v.front(), 1);
    if (close != std::string::npos) return v.substr(1, close - 1);
  }
  const std::size_t hash = v.find(" #");
  if (hash != std::string::npos) v = trim(v.substr(0, hash));
  return v;
}

void flatten_json(const Json& node, const std::string& prefix, ConfigText& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) flatten_json(value, prefix.empty() ? key : prefix + "." + key, out);
    return;
  }
  if (out.entries.size() >= kMaxArrayLength) return;
  out.entries.push_back({prefix, node.is_string() ? node.get<std::string>() : to_text(node), 0});
}

}  // namespace

ConfigText read_command_line(std::string_view text) {
  ConfigText out;
  std::vector<Word> words;
  if (!shell_words(text, words, out.error)) return out;
  for (std::size_t i = 0; i < words.size() && out.entries.size() < kMaxArrayLength; ++i) {
    const std::string& w = words[i].text;
    const int line = words[i].line;
    if (w == "-m" && i + 1 < words.size()) {  // python3 -m module: the program, not a setting
      out.words.push_back(w + " " + words[++i].text);
      continue;
    }
    if (is_flag(w)) {
      std::string key = w.substr(w[1] == '-' ? 2 : 1);
      const std::size_t eq = key.find('=');
      if (eq != std::string::npos) {
        out.entries.push_back({key.substr(0, eq), key.substr(eq + 1), line});
      } else if (i + 1 < words.size() && !is_flag(words[i + 1].text)) {
        out.entries.push_back({key, words[i + 1].text, line});
        ++i;
      } else {
        out.entries.push_back({key, "true", line});
      }
      continue;
    }
    const std::size_t eq = w.find('=');
    if (eq != std::string::npos && eq > 0)
      out.entries.push_back({w.substr(0, eq), w.substr(eq + 1), line});
    else
      out.words.push_back(w);
  }
  return out;
}

ConfigText read_yaml(std::string_view text) {
  ConfigText out;
  std::vector<std::pair<int, std::string>> parents;  // indentation and key of each open mapping
  int line_no = 0;
  std::size_t start = 0;
  while (start <= text.size() && out.entries.size() < kMaxArrayLength) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const std::string content = trim(raw);
    if (content.empty() || content[0] == '#' || content == "---") {
      if (end == text.size()) break;
      continue;
    }
    int indent = 0;
    while (indent < static_cast<int>(raw.size()) && raw[indent] == ' ') ++indent;
    if (content[0] == '-') {  // a block list item: appended to the last key's value
      if (!out.entries.empty()) {
        std::string& v = out.entries.back().value;
        v += (v.empty() ? "" : ",") + yaml_scalar(content.substr(1));
      }
      if (end == text.size()) break;
      continue;
    }
    const std::size_t colon = content.find(':');
    if (colon == std::string::npos) {
      out.error = "line " + std::to_string(line_no) + " is neither 'key: value' nor a list item";
      return out;
    }
    while (!parents.empty() && parents.back().first >= indent) parents.pop_back();
    std::string key;
    for (const auto& p : parents) key += p.second + ".";
    key += yaml_scalar(content.substr(0, colon));
    const std::string value = yaml_scalar(content.substr(colon + 1));
    if (value.empty()) {
      if (parents.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {  // each key repeats its parents': bounded
        out.error =
            "line " + std::to_string(line_no) + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels";
        return out;
      }
      parents.emplace_back(indent, yaml_scalar(content.substr(0, colon)));
    }
    out.entries.push_back({key, value, line_no});
    if (end == text.size()) break;
  }
  // A key that opened a mapping is not a setting itself.
  std::vector<ConfigEntry> settings;
  for (std::size_t i = 0; i < out.entries.size(); ++i) {
    const bool opens = out.entries[i].value.empty() && i + 1 < out.entries.size() &&
                       out.entries[i + 1].key.rfind(out.entries[i].key + ".", 0) == 0;
    if (!opens) settings.push_back(out.entries[i]);
  }
  out.entries = std::move(settings);
  return out;
}

ConfigText read_json_config(std::string_view text) {
  ConfigText out;
  Diagnostics d;
  const Json doc = parse_document(text, d);  // within the engine's limits: its depth bounds the flattening
  if (!d.empty()) {
    out.error = d.front().message;
    return out;
  }
  if (!doc.is_object()) {
    out.error = "the text is a JSON " + std::string(doc.type_name()) + ", not an object";
    return out;
  }
  flatten_json(doc, "", out);
  return out;
}

ConfigText read_yaml_or_overrides(std::string_view text) {
  const ConfigText words = read_command_line(text);
  if (words.error.empty() && !words.entries.empty()) {
    bool yaml_like = false;
    for (const auto& e : words.words) yaml_like = yaml_like || (!e.empty() && e.back() == ':');
    if (!yaml_like) return words;
  }
  return read_yaml(text);
}

bool config_number(const std::string& value, double& out) {
  const std::string v = trim(value);
  if (v.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || errno == ERANGE || !std::isfinite(x)) return false;
  out = x;
  return true;
}

bool config_boolean(const std::string& value, bool& out) {
  const std::string v = trim(value);
  if (v == "true" || v == "True" || v == "TRUE" || v == "1") return out = true, true;
  if (v == "false" || v == "False" || v == "FALSE" || v == "0") return out = false, true;
  return false;
}

}  // namespace scalescope
