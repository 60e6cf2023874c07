# `scripts/lint`: prints "LENGTH NAME FILE:LINE" for every func, init and subscript body of the Swift files given (a brace counter;
# string literals and line comments are skipped).
function strip(s) { gsub(/"([^"\\]|\\.)*"/, "\"\"", s); sub(/\/\/.*$/, "", s); return s }
FNR==1 { depth=0; n=0; pending="" }
{
  line=strip($0)
  if (match(line, /(func [A-Za-z_][A-Za-z0-9_]*|init[?!]?\(|subscript\()/)) {
    nm=substr(line, RSTART, RLENGTH)
    if (index(line, "{") > 0) { n++; startd[n]=depth; startl[n]=FNR; name[n]=nm; pending="" }
    else if (line ~ /[(,]\s*$/) { pending=nm; pendl=FNR }
  } else if (pending != "" && index(line, "{") > 0) {
    n++; startd[n]=depth; startl[n]=pendl; name[n]=pending; pending=""
  }
  o=gsub(/\{/, "{", line); c=gsub(/\}/, "}", line)
  depth += o - c
  while (n > 0 && depth <= startd[n]) {
    print FNR - startl[n] + 1, name[n], FILENAME ":" startl[n]
    n--
  }
}
