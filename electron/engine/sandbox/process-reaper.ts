/**
 * Linux without a PID namespace: the command runs under a small Perl program that makes itself the "child
 * subreaper" of everything below it (prctl PR_SET_CHILD_SUBREAPER), so a process that escapes with `setsid`,
 * a double fork or `env -i` is re-parented to it instead of to init and stays findable as a descendant. When
 * the shell exits it kills all that is left before exiting itself, and it asks the kernel for SIGTERM when its
 * parent (the worker) dies, so a killed worker takes the command's processes with it. Perl because it can make
 * a raw system call and is on every Debian-family system (perl-base is essential); where it is missing or the
 * call fails, the sweep (process-sweep.ts) falls back to sessions, groups and a marker variable.
 */

/** prctl's system call number per CPU architecture (Node's process.arch). */
const PRCTL: Partial<Record<NodeJS.Architecture, number>> = {
  x64: 157,
  arm64: 167,
  arm: 172,
  ia32: 172,
  riscv64: 167,
  ppc64: 171,
  s390x: 172,
};

const SCRIPT = String.raw`
use strict; use POSIX ();
my ($nr, $parent) = (shift @ARGV, shift @ARGV);
syscall($nr, 36, 1, 0, 0, 0) == 0 or exit 124;
syscall($nr, 1, 15, 0, 0, 0);
exit 125 if getppid() != $parent;
sub kids { open(my $f, '<', "/proc/$$/task/$$/children") or return (); my $l = <$f>; return split ' ', ($l // '') }
sub end_all { for (1..200) { my @c = kids(); last unless @c; kill 'KILL', @c; while (waitpid(-1, POSIX::WNOHANG()) > 0) {} select(undef, undef, undef, 0.005) } }
$SIG{TERM} = sub { end_all(); POSIX::_exit(137) };
my $pid = fork();
exit 126 unless defined $pid;
if ($pid == 0) { $SIG{TERM} = 'DEFAULT'; exec { $ARGV[0] } @ARGV; POSIX::_exit(127) }
my $status = 0;
while (1) { my $w = waitpid(-1, 0); last if $w < 0; if ($w == $pid) { $status = $?; last } }
end_all();
exit(($status & 127) ? 128 + ($status & 127) : $status >> 8);
`;

/** The argv prefix that runs `argv` under the reaper, for a child of `parentPid`. */
export function reaperArgs(perl: string, parentPid: number): string[] | null {
  const nr = PRCTL[process.arch];
  return nr === undefined ? null : [perl, '-e', SCRIPT, String(nr), String(parentPid)];
}
