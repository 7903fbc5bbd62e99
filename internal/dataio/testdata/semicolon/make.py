# Writes the semicolon-separated fixtures of dataio's tests from
# ../exports/reference.csv (the first 30 rows of the wine data) as
# spreadsheets and R write them where the decimal mark is a comma. Run in
# this folder: python3 make.py (the standard library only).
ref = [l.strip().split(",") for l in open("../exports/reference.csv") if l.strip()]
names = open("../exports/pandas-index.csv").readline().strip().split(",")[1:]

# A spreadsheet's "CSV" export: header names, fields separated by ';',
# decimal commas, CRLF line ends.
with open("wine-excel.csv", "w", newline="") as f:
    f.write(";".join(names) + "\r\n")
    for r in ref:
        f.write(";".join(c.replace(".", ",") for c in r) + "\r\n")

# R's write.csv2: a quoted header with an empty first name, the row names
# "1" to "30" quoted, decimal commas.
with open("wine-write-csv2.csv", "w") as f:
    f.write(";".join('"%s"' % n for n in [""] + names) + "\n")
    for i, r in enumerate(ref):
        f.write(";".join(['"%d"' % (i + 1)] + [c.replace(".", ",") for c in r]) + "\n")
