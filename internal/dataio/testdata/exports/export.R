# Writes the R fixtures of dataio's export tests from the table that
# export.py wrote (the first 30 rows of the wine data), and R's own mtcars,
# whose row names are text. Run by generate.sh (Debian: r-base-core).
df <- read.csv("pandas-index.csv")[, -1] # row names 1, 2, …, as R gives a table
write.csv(df, "r-write-csv.csv")
write.table(df, "r-write-table.txt")
write.table(df, "r-write-table-tab.tsv", sep = "\t")
na <- df
na[3, 2] <- NA
na[7, 5] <- NA
write.csv(na, "r-write-csv-na.csv")
write.csv(mtcars, "r-mtcars.csv")
write.table(mtcars, "r-mtcars.txt")
