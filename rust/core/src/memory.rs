//! How much memory a large allocation can still have, so that a run sized
//! beyond it is refused with an error instead of growing until the machine
//! (or its container) runs out.

use std::path::Path;

/// The bytes of memory available now: the system's `MemAvailable`
/// (`/proc/meminfo`), and under it what the process's control groups still
/// allow (each level's limit less its usage, cgroup v2 `memory.max` and
/// `memory.current` or v1 `memory.limit_in_bytes` and
/// `memory.usage_in_bytes`). None where none of it can be read (not Linux).
pub fn available_bytes() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_available(&text));
    let groups = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|text| cgroup_headroom(&text, Path::new("/sys/fs/cgroup")));
    match (system, groups) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kib: u64 = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The least headroom (limit less usage) of the process's memory control
/// groups, from its `/proc/self/cgroup` text, at every level of its path
/// up to the root of the hierarchy mounted at `root`. None when no level
/// has a limit.
fn cgroup_headroom(self_cgroup: &str, root: &Path) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in self_cgroup.lines() {
        // "ID:CONTROLLERS:PATH": v2 has no controllers, v1 names "memory".
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (base, files) = if controllers.is_empty() {
            (root.to_path_buf(), ("memory.max", "memory.current"))
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                ("memory.limit_in_bytes", "memory.usage_in_bytes"),
            )
        } else {
            continue;
        };
        // The process's own group, then each parent (a container may see
        // only its own part of the hierarchy, the mount's root).
        let mut dir = Some(Path::new(path.trim_start_matches('/')));
        while let Some(d) = dir {
            let at = base.join(d);
            let read = |name: &str| {
                std::fs::read_to_string(at.join(name))
                    .ok()
                    .and_then(|t| t.trim().parse::<u64>().ok())
            };
            // "max" (v2) does not parse: no limit at that level.
            if let (Some(limit), Some(usage)) = (read(files.0), read(files.1)) {
                let room = limit.saturating_sub(usage);
                least = Some(least.map_or(room, |l| l.min(room)));
            }
            dir = d.parent();
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemAvailable:   1000 kB\nBuffers: 1 kB\n";
        assert_eq!(mem_available(text), Some(1_024_000));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn takes_the_least_headroom_of_the_cgroup_levels() {
        let root = std::env::temp_dir().join(format!("cardtable-cgroup-{}", std::process::id()));
        let group = root.join("memory/outer/inner");
        std::fs::create_dir_all(&group).unwrap_or_default();
        let write = |dir: &Path, name: &str, value: &str| {
            std::fs::write(dir.join(name), value).unwrap_or_default();
        };
        // The inner group has no limit of its own; its parent allows 3000 more bytes.
        write(&group, "memory.limit_in_bytes", "9223372036854771712\n");
        write(&group, "memory.usage_in_bytes", "1000\n");
        let outer = root.join("memory/outer");
        write(&outer, "memory.limit_in_bytes", "5000\n");
        write(&outer, "memory.usage_in_bytes", "2000\n");
        let text = "4:memory:/outer/inner\n3:cpu:/\n";
        assert_eq!(cgroup_headroom(text, &root), Some(3000));
        // v2: "max" is no limit.
        let v2 = root.join("outer");
        std::fs::create_dir_all(&v2).unwrap_or_default();
        write(&v2, "memory.max", "max\n");
        write(&v2, "memory.current", "7\n");
        assert_eq!(cgroup_headroom("0::/outer\n", &root), None);
        write(&v2, "memory.max", "100\n");
        assert_eq!(cgroup_headroom("0::/outer\n", &root), Some(93));
        std::fs::remove_dir_all(&root).unwrap_or_default();
    }
}
