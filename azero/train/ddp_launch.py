"""torchrun (python3 -m torch.distributed.run) with a fix for torch < 2.0 on Python >= 3.11.

  python3 azero/train/ddp_launch.py --standalone --nproc_per_node=2 \\
      azero/train/train.py --chunks selfplay/ --run-dir run --steps 1000 ...

takes exactly torchrun's arguments. Why it exists: in torch 1.13,
torch.distributed.elastic.multiprocessing.api.Std.from_str looks the value up by
iterating over the IntFlag Std, and since Python 3.11 that iteration skips the zero
member NONE and the multi-bit alias ALL. So from_str("0") -- the default of --redirects
and --tee -- returns None and the stock launcher dies before starting any worker with

  AttributeError: 'NoneType' object has no attribute 'get'   (in to_map)

(Stock `-m torch.distributed.run` still works there when given non-zero single-bit
values, e.g. `--redirects 2 --tee 1`: stdout on the console prefixed "[default0]:",
stderr only in --log_dir files.) This wrapper replaces from_str with a correct version
when, and only when, the installed one is broken, then runs torch.distributed.run as
__main__. Where torchrun works it changes nothing.
"""

import re
import runpy


def std_from_str_is_broken():
    from torch.distributed.elastic.multiprocessing import api
    try:
        return api.Std.from_str("0") is None or api.Std.from_str("3") is None
    except Exception:
        return True


def fix_std_from_str():
    """Patch Std.from_str if broken; returns whether it patched."""
    from torch.distributed.elastic.multiprocessing import api
    if not std_from_str_is_broken():
        return False
    Std = api.Std
    value_re = getattr(api, "_VALUE_REGEX", r"^[0123]$")
    mapping_re = getattr(api, "_MAPPING_REGEX", r"^(\d:[0123],)*(\d:[0123])$")

    def from_str(cls, vm):
        if re.match(value_re, vm):
            return cls(int(vm))
        if re.match(mapping_re, vm):
            return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
        raise ValueError("%s does not match: <%s> or <%s>" % (vm, value_re, mapping_re))

    Std.from_str = classmethod(from_str)
    return True


if __name__ == "__main__":
    fix_std_from_str()
    runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
