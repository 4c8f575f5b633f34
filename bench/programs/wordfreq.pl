# The Perl benchmark of bench/programs: word frequencies with hashes and regular expressions.
use strict;
use warnings;

my %count;
open(my $f, '<', $ARGV[0]) or die "cannot open $ARGV[0]: $!";
while (my $line = <$f>) {
    $line = lc $line;
    $line =~ s/[.\n]//g;
    $count{$_}++ for split / /, $line;
}
close $f;
my @top = (sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count)[0 .. 19];
my $vowels = 0;
for my $w (keys %count) {
    $vowels++ while $w =~ /[aeiou]{2}/g;
}
print scalar(keys %count), " $top[0] $vowels\n";
