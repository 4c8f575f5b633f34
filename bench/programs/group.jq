# The JSON benchmark of bench/programs: records grouped, summed and reshaped.
group_by(.city)
| map({city: .[0].city, orders: length, total: (map(.amount) | add | floor),
       tags: (map(.tags[]) | unique | length)})
| sort_by(-.total)
| .[:10]
