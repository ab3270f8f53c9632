util.func public @f(%a: !stream.resource<*>, %s: index) {
  %0 = stream.async.transfer %a : !stream.resource<*>{%s} -> index{%s}
  util.return
}
